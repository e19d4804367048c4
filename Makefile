.PHONY: fuzz
# libFuzzer harnesses for the readers (not part of `swift test`); FUZZ_SECONDS per harness, default 60.
fuzz:
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} Fuzz/run.sh $(FUZZ)

# A thin façade over the runner: the stage graph lives only in pipeline/pipeline.yaml.
#
#   make                build (release) and run every stage whose inputs changed
#   make normalize      run one stage;  make normalize+  it and everything downstream;
#                       make +merge     it and everything upstream;  make plan@mlb-week  one fan-out instance
#   make status         say per stage what would run and why; work pending is not a make error (it
#                       prints the hint to run make); `sportstime status` itself exits 1 then
#   make dag            print the stage graph as Mermaid
#   make diff           record-level changes of out/ against HEAD (REV=main to compare with another revision)
#   make diff-driver    opt in to record-level `git diff` of out/ envelopes in this clone (see .gitattributes)
#   make test           install the PDF test tools, then swift test (a debug build of its own: .build/debug)
#   make records        regenerate the readers and writers of every record from its declaration (docs/records.md)
#   make schemas        regenerate docs/yaml-reference.md and the editor schemas of the YAML inputs in
#                       pipeline/schemas/ from the readers' key tables
#   make pdf            install WeasyPrint into .venv/ and render every itinerary with its PDF into
#                       .pipeline/pdf/<request>/ (never out/: the committed outputs stay untouched)
#   make clean          remove .build and .pipeline (never out/)
#
# A fresh clone is already up to date (out/ and the lock are committed): the first `make` spends its time
# on the release build and then skips every stage. `make RUNFLAGS=--force` runs every stage anyway and
# leaves out/ byte-identical.
#   make fuzz           libFuzzer runs of the readers (FUZZ_SECONDS=60 each; see Fuzz/README.md)
#   make bench          release build, then bench/run.sh: figures against docs/design.md §8 (see bench/README.md)
#
# RUNFLAGS passes options to `sportstime run`, e.g. make RUNFLAGS="--jobs 2 --keep-going".

SHELL := /bin/bash
SWIFT ?= swift
SPORTSTIME := .build/release/sportstime
RUNFLAGS ?=
DIFFFLAGS ?=
REV ?= HEAD

.PHONY: all build status dag diff diff-driver test test-tools pdf bench fuzz clean schemas records format lint
.DEFAULT_GOAL := all

all: build
	$(SPORTSTIME) run $(RUNFLAGS)

# Release executables link the Swift runtime and Foundation statically: a process starts in about
# 3.5 ms instead of 6, most of a no-op `sportstime status` and part of each of a run's 25 stage processes.
# The static glibc link repeats one linker warning about Foundation's use of mktemp per executable; it is
# left out of the output (every other line, and the exit status, are swift build's).
SWIFT_BUILD_RELEASE := $(SWIFT) build -c release --static-swift-stdlib

build:
	@set -o pipefail; $(SWIFT_BUILD_RELEASE) 2>&1 | { grep -v "the use of .mktemp. is dangerous" || true; }

# `sportstime status` exits 1 when work is pending, which is an answer, not a failure of the target:
# print what to do instead of make's "Error 1". Any other status (2: invalid spec or lock) still fails.
status: build
	@$(SPORTSTIME) status; rc=$$?; \
	if [ $$rc -eq 1 ]; then echo "Work is pending: run 'make' to bring out/ up to date (or 'make <stage>')."; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi

dag: build
	$(SPORTSTIME) dag

diff: build
	$(SPORTSTIME) diff $(REV) $(DIFFFLAGS)

# `git diff` of out/**/*.json and *.jsonl through `sportstime diff-files` (.gitattributes names the
# driver); this clone's git config only. Undo: git config --unset diff.sportstime.command
diff-driver: build
	git config diff.sportstime.command "$(CURDIR)/$(SPORTSTIME) diff-files"
	@echo "git diff now shows out/ envelopes record by record (git config --unset diff.sportstime.command to stop)."

# The render tests read PDFs back: install poppler-utils and WeasyPrint (into .venv/) first.
test: test-tools
	$(SWIFT) test

test-tools:
	pipeline/tools/install-test-tools.sh
	pipeline/tools/install-pdf-engine.sh

# The toolchain's formatter with the committed .swift-format: `make format` rewrites the Swift sources in
# place; `make lint` (run by CI) fails when any file is not as the formatter writes it.
SWIFT_SOURCES := Sources Tests Fuzz Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_SOURCES)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_SOURCES)
	$(SWIFT) run --quiet sportstime-records --check

# Each record's initializer, line reader and writer are generated from its declared fields (docs/records.md).
records:
	$(SWIFT) run --quiet sportstime-records

# The YAML reference and the editor schemas are generated from the key tables beside each YAML reader
# (Tests/ReferenceTests checks that the committed files are exactly what this writes).
schemas:
	RECORD_GOLDENS=1 $(SWIFT) test --filter YAMLReferenceTests/theCommittedReferenceAndSchemasAreAsGenerated

# PDFs are build products (not committed): render the full set from the committed plans into
# $(PDF_DIR) (ignored), so out/render/ and the runner's view of it are left alone.
PDF_DIR := .pipeline/pdf

pdf: build
	pipeline/tools/install-pdf-engine.sh
	.build/release/sportstime-render --plans out/plan --merged out/merge --geo fixtures/geo --out $(PDF_DIR)
	@echo "PDFs written to $(PDF_DIR)/:"
	@ls -1 $(PDF_DIR)/*/itinerary.pdf

clean:
	rm -rf .build .pipeline

# Make must not try to rebuild this file with the rule below.
Makefile: ;

# Any other goal names stages: `make normalize`, `make normalize+`, `make +merge`.
%: build
	$(SPORTSTIME) run $(RUNFLAGS) $@

bench: build
	pipeline/tools/install-bench-tools.sh
	bench/run.sh

# libFuzzer harnesses for the readers (not part of `swift test`); FUZZ_SECONDS per harness, default 60.
fuzz:
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} Fuzz/run.sh $(FUZZ)

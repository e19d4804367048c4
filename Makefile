# Thin: the pipeline graph lives in pipeline/pipeline.yaml; benchmarks in bench/ (see bench/README.md).
.PHONY: bench
bench: ; swift build -c release && bench/run.sh

#!/usr/bin/env bash
# Regenerates Sources/NLUCoreML/Generated/CoreMLSubset.pb.swift from coremltools' .proto files
# (copied unchanged, BSD-3, into Sources/NLUCoreML/Proto). Run only when those files change; the output is committed
# so that builds need neither protoc nor swift-protobuf's build plugin.
#
# Needs: protoc (Debian: apt-get install protobuf-compiler) and protoc-gen-swift 1.39.0, built once outside the repo:
#   git clone /opt/swift-packages/apple/swift-protobuf.git /tmp/sp && git -C /tmp/sp checkout 1.39.0
#   (cd /tmp/sp && swift build --product protoc-gen-swift)
#   PROTOC_GEN_SWIFT=/tmp/sp/.build/debug/protoc-gen-swift bash scripts/generate-coreml-proto.sh
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}"
[ -x "$plugin" ] || { echo "set PROTOC_GEN_SWIFT to a protoc-gen-swift 1.39.0 binary" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python3 scripts/trim-coreml-proto.py Sources/NLUCoreML/Proto "$scratch/CoreMLSubset.proto"
protoc --plugin=protoc-gen-swift="$plugin" -I "$scratch" --swift_out="$scratch" \
    --swift_opt=Visibility=Internal "$scratch/CoreMLSubset.proto"
mkdir -p Sources/NLUCoreML/Generated
mv "$scratch/CoreMLSubset.pb.swift" Sources/NLUCoreML/Generated/CoreMLSubset.pb.swift
wc -l Sources/NLUCoreML/Generated/CoreMLSubset.pb.swift

# Sourced by scripts/quickstart.sh and scripts/test.sh: the one build both use, so that the test
# command compiles only the test targets on top of the quickstart's modules instead of making a
# second, debug build of everything. Release (-O), with -enable-testing because the tests
# `@testable import` the modules; nothing in the code or the tests depends on a debug build.
# Benchmarks build plain `swift build -c release` (no -enable-testing) before they time anything,
# which rebuilds .build/release without the flag; the next scripts/test.sh rebuilds it with the flag.
nlukit_build_flags=(-c release -Xswiftc -enable-testing)

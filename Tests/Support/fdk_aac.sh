#!/usr/bin/env bash
# Unpacks Fraunhofer's libfdk-aac from Debian's archive (component non-free, package libfdk-aac2, whatever version the
# archive holds today) into DIR/root, for the HE-AAC test media only (Tests/Support/fdk_encode.py): nothing is
# installed on the system and the machine's apt sources are not changed (a throwaway apt configuration under DIR
# names the one component). Does nothing when DIR already holds the library. Prints the library's path.
#   Tests/Support/fdk_aac.sh DIR
set -euo pipefail
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
found() { find "$dir/root" -name 'libfdk-aac.so.2' -print -quit 2>/dev/null; }
if [ -n "$(found)" ]; then found; exit 0; fi
mkdir -p "$dir/lists/partial" "$dir/debs" "$dir/sources.list.d"
. /etc/os-release
suite="${VERSION_CODENAME:-bookworm}"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$keyring] http://deb.debian.org/debian $suite non-free" > "$dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o "Dir::Etc::sourceparts=$dir/sources.list.d" -o "Dir::State::Lists=$dir/lists"
          -o "Dir::Cache::archives=$dir/debs" -o "APT::Get::List-Cleanup=0" -o "APT::Sandbox::User=root")
apt-get "${apt_opts[@]}" update -qq >&2
version="$(apt-cache "${apt_opts[@]}" policy libfdk-aac2 | awk '/Candidate:/ { print $2 }')"
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  echo "fdk_aac.sh: Debian's $suite non-free holds no libfdk-aac2; the HE-AAC test media cannot be made." >&2
  exit 1
fi
(cd "$dir/debs" && apt-get "${apt_opts[@]}" download -qq "libfdk-aac2=$version" >&2)
dpkg-deb -x "$dir"/debs/libfdk-aac2_*.deb "$dir/root"
echo "fdk_aac.sh: took libfdk-aac2 $version from Debian $suite non-free" >&2
found

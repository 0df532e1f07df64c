#!/usr/bin/env bash
# Sets up the hardware-in-the-loop VM on a Debian bookworm amd64 host (see hardware/README.md):
#   1. the host packages (deploy/install-deps.sh hil; sudo when not root): QEMU, busybox-static, the tools the
#      guest runs (the guest uses this machine's root file system over 9p, read-only, with a tmpfs overlay);
#   2. Debian's kernel (linux-image-<ABI>-amd64 with its headers, kbuild and linux-source) at the newest version
#      the archive has all five of (kernel-version.sh), downloaded with `apt-get download` and unpacked with
#      `dpkg -x`: nothing is installed, the host kernel is untouched;
#   3. gpio-sim and irq_sim, which Debian's kernel lacks, built out of tree from that same version's source,
#      and hil_backlight, a backlight with no hardware behind it (the systemd scenario dims it);
#   4. a busybox initramfs whose init (hardware/hil/init) mounts the host root over 9p.
# Everything goes to WORKDIR (default .build-hil-vm/ in the repository), one folder per kernel version; a step
# already done for the same version is skipped, so a second run takes a few seconds.
#
# Usage: hardware/hil/setup.sh [WORKDIR]      Prints WORKDIR/current.env's path on success; exit 1 with a
#                                             sentence saying what could not be set up otherwise.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=hardware/hil/kernel-version.sh
. "$HERE/kernel-version.sh"
W=${1:-${HIL_WORKDIR:-$REPO/.build-hil-vm}}
mkdir -p "$W" && W=$(cd "$W" && pwd)
export DEBIAN_FRONTEND=noninteractive LC_ALL=C

die() { echo "hil-setup: $*" >&2; exit 1; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.1f", a - b }'; }
step() {  # step NAME FUNCTION: runs it and prints how long it took
  local name=$1 start; shift; start=$(now)
  "$@"
  printf 'hil-setup: %-34s %5.1f s\n' "$name" "$(elapsed "$start")"
}

host_packages() {
  [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || die "the HIL needs a Debian amd64 host (QEMU boots Debian's amd64 kernel)."
  grep -q 'VERSION_CODENAME=bookworm' /etc/os-release || echo "hil-setup: warning: this is not Debian bookworm; the kernel packages it finds may not match." >&2
  "$REPO/deploy/install-deps.sh" hil >/dev/null || die "could not install the HIL's packages (deploy/install-deps.sh hil failed)."
  for tool in qemu-system-x86_64 cpio depmod modprobe gcc make xz; do
    command -v "$tool" >/dev/null || die "$tool is missing after installing the packages."
  done
  [ -x /bin/busybox ] && file_is_static /bin/busybox || die "/bin/busybox is not the static busybox (package busybox-static)."
}
file_is_static() { ! ldd "$1" >/dev/null 2>&1; }

# The kernel the VM boots: the newest version of linux-image-amd64 whose five packages the archive has at
# exactly that version, or that is already built in WORKDIR (hardware/hil/kernel-version.sh). The apt lists
# are refreshed when they are a day old or when no version is complete, in case the archive has moved on.
resolve_kernel() {
  local updated=""
  if [ -n "${HIL_APT_UPDATE:-}" ] || lists_older_than_a_day; then apt_update; updated=1; fi
  if ! resolve_kernel_version "$W"; then
    [ -z "$updated" ] || die "$KERNEL_PROBLEM"
    apt_update   # no complete set in lists under a day old: perhaps the archive has moved on since
    resolve_kernel_version "$W" || die "$KERNEL_PROBLEM"
  fi
  K=$W/kernel/${KV}_$VER
  echo "hil-setup: $KERNEL_CHOICE"
}
apt_update() {
  timeout 300 $SUDO apt-get update -qq || echo "hil-setup: warning: apt-get update failed; using the lists there are." >&2
}
lists_older_than_a_day() {
  [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_InRelease' -mmin -1440 2>/dev/null | head -1)" ]
}

download_kernel() {
  rm -rf "$K" && mkdir -p "$K/debs"
  (cd "$K/debs" && timeout 900 apt-get download -q "linux-image-$KV=$VER" "linux-headers-$KV=$VER" \
      "linux-headers-$ABI-common=$VER" "linux-kbuild-$SER=$VER" "linux-source-$SER=$VER" 2>&1 |
      grep -v 'Download is performed unsandboxed' >&2) || true
  for p in "linux-image-$KV" "linux-headers-$KV" "linux-headers-$ABI-common" "linux-kbuild-$SER" "linux-source-$SER"; do
    ls "$K/debs/${p}_"*.deb >/dev/null 2>&1 || die "could not download $p=$VER (apt-get download failed; see above)."
  done
}

extract_kernel() {
  cd "$K"
  dpkg -x debs/linux-image-"$KV"_*.deb kernel
  for d in debs/linux-headers-*.deb debs/linux-kbuild-*.deb; do dpkg -x "$d" hdr; done
  # Debian's headers Makefile includes an absolute /usr/src/... path: point it at the unpacked copy.
  sed -i "s#/usr/src/#$K/hdr/usr/src/#" "hdr/usr/src/linux-headers-$KV/Makefile"
  local S=linux-source-$SER
  mkdir -p src
  dpkg-deb --fsys-tarfile debs/linux-source-"$SER"_*.deb | tar -xO "./usr/src/$S.tar.xz" |
    tar -xJ -C src "$S/drivers/gpio/gpio-sim.c" "$S/drivers/gpio/gpiolib.h" "$S/kernel/irq/irq_sim.c" ||
    die "could not take gpio-sim.c, gpiolib.h and irq_sim.c out of $S.tar.xz."
  depmod -b kernel "$KV"   # the package ships no modules.dep: its postinst would make it
  for m in snd-aloop mac80211_hwsim uinput configfs 9p overlay; do
    modprobe -d kernel -S "$KV" --show-depends "$m" >/dev/null 2>&1 || die "Debian's kernel $KV has no module $m, which the HIL needs."
  done
}

# gpio-sim needs CONFIG_IRQ_SIM, which Debian's kernel does not set: irq_sim.c becomes its own module. It calls
# handle_simple_irq(irq_to_desc(n)), and irq_to_desc is not exported to modules; generic_handle_irq(n) does
# the same through an exported function.
build_modules() {
  cd "$K"
  local S=src/linux-source-$SER
  rm -rf oot && mkdir oot
  cp "$S/drivers/gpio/gpio-sim.c" "$S/drivers/gpio/gpiolib.h" "$S/kernel/irq/irq_sim.c" oot/
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' oot/irq_sim.c
  grep -q 'generic_handle_irq(irqnum);' oot/irq_sim.c ||
    die "irq_sim.c of $VER no longer has the line the HIL patches (handle_simple_irq(irq_to_desc(irqnum))); update build_modules in $0."
  printf '#include <linux/module.h>\nMODULE_LICENSE("GPL");\nMODULE_DESCRIPTION("irq_sim built out of tree for the Aubade HIL");\n' >> oot/irq_sim.c
  hil_backlight_source > oot/hil_backlight.c
  echo 'obj-m += irq_sim.o gpio-sim.o hil_backlight.o' > oot/Kbuild
  timeout 900 make -s -C "hdr/usr/src/linux-headers-$KV" M="$K/oot" -j"$(nproc)" modules > oot/build.log 2>&1 ||
    { tail -20 oot/build.log >&2; die "building gpio-sim/irq_sim out of tree failed (log: $K/oot/build.log)."; }
  for k in irq_sim gpio-sim hil_backlight; do [ -f "oot/$k.ko" ] || die "the out-of-tree build made no $k.ko (log: $K/oot/build.log)."; done
  mkdir -p "kernel/lib/modules/$KV/extra"
  cp oot/irq_sim.ko oot/gpio-sim.ko oot/hil_backlight.ko "kernel/lib/modules/$KV/extra/"
  depmod -b kernel "$KV"
  modprobe -d kernel -S "$KV" --show-depends gpio-sim | grep -q irq_sim.ko || die "depmod does not resolve gpio-sim -> irq_sim."
}

# A backlight device with no hardware behind it, as a kiosk screen has (/sys/class/backlight/hil-backlight,
# under the platform device /sys/devices/platform/hil-backlight): it keeps the brightness it is given. The
# systemd scenario proves that the hardened unit still lets the daemon dim it.
hil_backlight_source() {
  cat <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/backlight.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static struct platform_device *hil_pdev;
static struct backlight_device *hil_bl;

static int hil_bl_update(struct backlight_device *bl) { return 0; }
static const struct backlight_ops hil_bl_ops = { .update_status = hil_bl_update };

static int __init hil_bl_init(void)
{
	struct backlight_properties props = { .type = BACKLIGHT_RAW, .max_brightness = 255, .brightness = 255 };

	hil_pdev = platform_device_register_simple("hil-backlight", -1, NULL, 0);
	if (IS_ERR(hil_pdev))
		return PTR_ERR(hil_pdev);
	hil_bl = backlight_device_register("hil-backlight", &hil_pdev->dev, NULL, &hil_bl_ops, &props);
	if (IS_ERR(hil_bl)) {
		platform_device_unregister(hil_pdev);
		return PTR_ERR(hil_bl);
	}
	return 0;
}

static void __exit hil_bl_exit(void)
{
	backlight_device_unregister(hil_bl);
	platform_device_unregister(hil_pdev);
}

module_init(hil_bl_init);
module_exit(hil_bl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A backlight without hardware for the Aubade HIL");
C
}

# Keep only what the VM boots from (kernel/: vmlinuz + modules); the debs, headers and source are ~700 MB.
tidy_kernel() {
  rm -rf "$K/debs" "$K/hdr" "$K/src"
  touch "$K/.ready"
  find "$W/kernel" -mindepth 1 -maxdepth 1 -type d ! -path "$K" -exec rm -rf {} +   # older kernel versions
}

# A ~2 MB initramfs: static busybox, the modules to mount 9p and overlayfs, and hardware/hil/init as /init.
build_initramfs() {
  local T mods=()
  T=$(mktemp -d) || die "mktemp failed."
  mkdir -p "$T"/{bin,proc,sys,dev,newroot,ro,rw,lib/modules}
  cp /bin/busybox "$T/bin/busybox"
  mapfile -t mods < <(for top in virtio_pci 9pnet_virtio 9p overlay; do
      modprobe -d "$K/kernel" -S "$KV" --show-depends "$top" | awk '$1=="insmod"{print $2}'; done | awk '!seen[$0]++')
  [ "${#mods[@]}" -gt 0 ] || die "modprobe found no modules for 9p/overlay in $K/kernel."
  for ko in "${mods[@]}"; do cp "$ko" "$T/lib/modules/"; basename "$ko" >> "$T/modules.load"; done
  cp "$HERE/init" "$T/init" && chmod 755 "$T/init"
  (cd "$T" && find . | cpio -o -H newc --quiet | gzip -1 > "$K/initramfs.cpio.gz.new")
  mv "$K/initramfs.cpio.gz.new" "$K/initramfs.cpio.gz"
  rm -rf "$T"
  initramfs_key > "$K/initramfs.key"
}
initramfs_key() { cat "$HERE/init" /bin/busybox | sha256sum | cut -d' ' -f1; }

write_env() {
  cat > "$W/current.env" <<EOF
# Written by hardware/hil/setup.sh; read by hardware/hil/run.sh.
HIL_KV=$KV
HIL_KVERSION=$VER
HIL_VMLINUZ=$K/kernel/boot/vmlinuz-$KV
HIL_MODULES=$K/kernel/lib/modules
HIL_INITRD=$K/initramfs.cpio.gz
EOF
}

total_start=$(now)
step "host packages (apt)" host_packages
step "kernel version" resolve_kernel
if [ -f "$K/.ready" ] && [ -f "$K/kernel/lib/modules/$KV/extra/hil_backlight.ko" ]; then
  echo "hil-setup: kernel, gpio-sim, irq_sim and hil_backlight already built for $VER"
else
  step "download kernel packages" download_kernel
  step "unpack kernel, headers, 3 sources" extract_kernel
  step "build gpio-sim + irq_sim, depmod" build_modules
  tidy_kernel
fi
if [ -f "$K/initramfs.cpio.gz" ] && [ "$(cat "$K/initramfs.key" 2>/dev/null)" = "$(initramfs_key)" ]; then
  echo "hil-setup: initramfs up to date"
else
  step "initramfs" build_initramfs
fi
write_env
echo "hil-setup: ready in $(elapsed "$total_start") s: $W/current.env"

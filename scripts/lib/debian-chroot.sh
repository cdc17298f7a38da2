# gst-cuda-vision: Debian systems in folders, for the scripts that build,
# test or install the project in another release or architecture. Sourced,
# not run; needs root (debootstrap, mount, chroot) and Debian's mirror.
# Copyright (C) 2026 gst-cuda-vision developers
# SPDX-License-Identifier: LGPL-2.1-or-later

chroot_mounts=()

chroot_unmount_all() {
  for ((i = ${#chroot_mounts[@]} - 1; i >= 0; i--)); do
    umount "${chroot_mounts[$i]}" || true
  done
  chroot_mounts=()
}

# chroot_make ROOT SUITE [COMPONENTS]: a minimal Debian SUITE in ROOT
# (kept from an earlier run), /proc and /dev mounted until the script
# exits, apt's lists fetched.
chroot_make() {
  local root="$1" suite="$2" components="${3:-main}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "needs root for debootstrap, mount and chroot" >&2
    exit 1
  fi
  if ! command -v debootstrap >/dev/null; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
  fi
  if [ ! -f "$root/etc/debian_version" ]; then
    echo "== making a Debian $suite system in $root"
    debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian
  fi
  trap chroot_unmount_all EXIT
  mount -t proc proc "$root/proc"
  chroot_mounts+=("$root/proc")
  mkdir -p "$root/dev"
  mount --bind /dev "$root/dev"
  chroot_mounts+=("$root/dev")
  echo "deb http://deb.debian.org/debian $suite $components" \
    >"$root/etc/apt/sources.list"
  chroot "$root" apt-get update -q
}

# chroot_bind FOLDER TARGET: FOLDER bind-mounted (read-only) at TARGET
# until the script exits.
chroot_bind() {
  mkdir -p "$2"
  mount --bind -o ro "$1" "$2"
  chroot_mounts+=("$2")
}

# chroot_install ROOT PACKAGE...: installs them without recommends.
chroot_install() {
  local root="$1"
  shift
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "$@"
}

# chroot_copy_tree ROOT: the working tree's tracked files into ROOT/src.
chroot_copy_tree() {
  rm -rf "$1/src"
  mkdir -p "$1/src"
  git ls-files -z | tar --null -T - -c | tar -x -C "$1/src"
}

# chroot_run ROOT COMMAND...: runs it in ROOT with a plain PATH.
chroot_run() {
  local root="$1"
  shift
  chroot "$root" env PATH="/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$@"
}

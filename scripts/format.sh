#!/bin/bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# Formats the sources the way GStreamer's are: GNU indent with GStreamer's
# options for C (twice, as one pass of indent is not always stable), and
# clang-format with the project's .clang-format for CUDA.
#   scripts/format.sh           rewrites the files that differ
#   scripts/format.sh --check   changes nothing; lists them and fails
# The layout is that of Debian 12's indent 2.2.12 and clang-format 14, which
# the test command installs; other versions may break some lines otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
if [ "${1:-}" = --check ]; then
  check=true
fi
for tool in indent clang-format; do
  if ! command -v "$tool" >/dev/null; then
    echo "format: $tool is missing (apt-get install indent clang-format)" >&2
    exit 2
  fi
done

gst_indent () {
  local pass
  cp "$1" "$2"
  for pass in 1 2; do
    indent --braces-on-if-line --case-brace-indentation0 \
      --case-indentation2 --braces-after-struct-decl-line --line-length80 \
      --no-tabs --cuddle-else --dont-line-up-parentheses \
      --continuation-indentation4 --honour-newlines --tab-size8 \
      --indent-level2 --leave-preprocessor-space "$2" -o "$2.pass"
    mv "$2.pass" "$2"
  done
  case "$1" in
    *.h) restore_decls "$2" ;;
  esac
}

# indent reads a header's G_BEGIN_DECLS (or CVCORE_BEGIN_DECLS), which has
# no semicolon, as the start of the declaration after it: it indents that
# declaration, joins a typedef to the macro's line and drops the blank
# lines around the macros; and it indents a class structure's function
# pointers that follow a comment by four spaces, not two. GStreamer runs
# indent on .c files only for this reason; here headers get indent too,
# then this puts those lines back.
restore_decls () {
  awk '
    function blank_after(line) { return line ~ /^(G|CVCORE)_(BEGIN|END)_DECLS$/ }
    {
      line = $0
      if (line ~ /^(G|CVCORE)_BEGIN_DECLS [^ ]/) {
        rest = line
        sub(/^(G|CVCORE)_BEGIN_DECLS /, "", rest)
        sub(/ .*$/, "", line)
        print line
        print ""
        line = rest
        pending_code = 0
      }
      if (line ~ /^    [A-Za-z_][A-Za-z_0-9]* +\(\*[A-Za-z_0-9]+\) \(/)
        sub(/^    /, "  ", line)
      if (pending_code && line !~ /^[ \t]*$/ && line !~ /^[ \t]*(\/\*|\*|#)/ \
          && prev !~ /\\$/) {
        sub(/^    /, "", line)
        pending_code = 0
      }
      if (need_blank && line !~ /^$/)
        print ""
      need_blank = 0
      print line
      if (line ~ /^(G|CVCORE)_BEGIN_DECLS$/)
        pending_code = 1
      if (blank_after(line))
        need_blank = 1
      prev = line
    }' "$1" > "$1.decls"
  mv "$1.decls" "$1"
}

formatted=$(mktemp)
trap 'rm -f "$formatted" "$formatted.pass" "$formatted.decls"' EXIT
differ=0
while IFS= read -r file; do
  case "$file" in
    *.c | *.h) gst_indent "$file" "$formatted" ;;
    *.cu | *.cuh) clang-format --style=file "$file" > "$formatted" ;;
  esac
  if ! cmp -s "$file" "$formatted"; then
    differ=$((differ + 1))
    if $check; then
      echo "not formatted: $file"
    else
      cp "$formatted" "$file"
    fi
  fi
done < <(if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files '*.c' '*.h' '*.cu' '*.cuh'
  else
    find core gst tests tools examples -name '*.[ch]' -o -name '*.cu' \
      -o -name '*.cuh'
  fi)

if $check && [ "$differ" -gt 0 ]; then
  echo "format: $differ file(s) differ; run scripts/format.sh" >&2
  exit 1
fi

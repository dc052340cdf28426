#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints what of a protocol XML goes on the wire: wayland-scanner's private code and client
# header with every comment stripped. Two files print the same exactly when their interfaces,
# versions, messages, arguments, types and enums are the same, whatever their prose.
# usage: protocol-wire-skeleton.sh FILE.xml
set -eu
for mode in private-code client-header server-header; do
	wayland-scanner "$mode" <"$1" | python3 -c '
import re, sys
text = re.sub(r"/\*.*?\*/", "", sys.stdin.read(), flags=re.S)
text = re.sub(r"//[^\n]*", "", text)
print("\n".join(l.rstrip() for l in text.splitlines() if l.strip()))'
done

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copies the C block that follows a marker comment in a Markdown file into a .c file.

usage: extract-example.py DOC.md MARKER OUTPUT.c
"""
import sys


def main():
    doc, marker, output = sys.argv[1:4]
    lines = open(doc, encoding='utf-8').read().splitlines()
    try:
        start = lines.index('<!-- %s -->' % marker)
    except ValueError:
        sys.exit('%s: marker <!-- %s --> not found' % (doc, marker))
    if start + 1 >= len(lines) or lines[start + 1] != '```c':
        sys.exit('%s:%d: a ```c block must follow the marker' % (doc, start + 2))
    try:
        end = lines.index('```', start + 2)
    except ValueError:
        sys.exit('%s:%d: unterminated code block' % (doc, start + 2))
    with open(output, 'w', encoding='utf-8') as out:
        out.write('/* Generated from %s; edit the document, not this file. */\n' % doc)
        out.write('#line %d "%s"\n' % (start + 3, doc))
        out.write('\n'.join(lines[start + 2:end]) + '\n')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws bench/fleet's curve (--tsv) as an SVG: the chance that a LAN of k
stations sees two with one address in a year of daily rotation, log-log.

    fleet-plot.py fleet.tsv out.svg"""
import math
import sys

SERIES = [("all_zeros", "all-zeros proposal", "#7f7f7f", "6,3"),
          ("macguise", "macguise, no check", "#d62728", ""),
          ("asleep", "macguise, checked, 1% asleep", "#ff7f0e", "4,2"),
          ("nm_random", "NetworkManager random", "#1f77b4", ""),
          ("checked", "macguise, checked", "#2ca02c", "")]
W, H, L, R, T, B = 760, 480, 80, 20, 40, 60
YMIN, YMAX = -16, 0
TOP = 0.5  # headroom above 1, so that the all-zeros line shows


def main(tsv, out):
    rows = [line.rstrip("\n").split("\t") for line in open(tsv)]
    head, data = rows[0], [[float(x) for x in r] for r in rows[1:]]
    col = {name: i for i, name in enumerate(head)}
    xs = [r[0] for r in data]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))

    def px(k):
        return L + (math.log10(k) - x0) / (x1 - x0) * (W - L - R)

    def py(p):
        v = max(YMIN, math.log10(p)) if p > 0 else YMIN
        return T + (YMAX + TOP - v) / (YMAX + TOP - YMIN) * (H - T - B)

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="14">'
           'P(some pair of stations on a LAN shares an address in a year, daily rotation)</text>']
    for e in range(YMIN, YMAX + 1, 2):
        y = py(10 ** e)
        svg.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    for k in (2, 5, 10, 20, 50, 100, 200, 500, 1000):
        x = px(k)
        svg.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#eee"/>')
        svg.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{k}</text>')
    svg.append(f'<text x="{(L + W - R) / 2}" y="{H - 18}" text-anchor="middle">'
               'stations on the LAN (k)</text>')
    svg.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="black"/>')
    for i, (name, label, colour, dash) in enumerate(SERIES):
        pts = " ".join(f"{px(r[0]):.1f},{py(r[col[name]]):.1f}" for r in data)
        svg.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2" '
                   f'stroke-dasharray="{dash}"/>')
        y = T + 30 + i * 16
        svg.append(f'<line x1="{L + 12}" y1="{y - 4}" x2="{L + 36}" y2="{y - 4}" stroke="{colour}" '
                   f'stroke-width="2" stroke-dasharray="{dash}"/>')
        svg.append(f'<text x="{L + 42}" y="{y}">{label}</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

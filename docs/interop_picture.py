#!/usr/bin/python3
"""Draws docs/images/interop_buffer.svg: one buffer seen by strata, NumPy and PyTorch. Every line
in the picture comes from the real objects: each view's element (i, j) is joined to the buffer
cell its data pointer and strides address, so the picture shows that the three share memory.

usage: PYTHONPATH=build/release/python /usr/bin/python3 docs/interop_picture.py
"""
import pathlib

import numpy as np
import torch

import strata

buffer = np.arange(12.0)                     # the memory: a NumPy array of 12 float64
u = buffer.reshape(3, 4)
t = strata.asarray(u)[1:, ::-2]              # a strata view: negative stride, an offset
n = np.asarray(t)                            # NumPy sees strata's view, no copy
p = torch.from_dlpack(strata.asarray(u)[1:, 1::2].T)  # PyTorch sees another strata view

base = buffer.ctypes.data
views = [
    ("strata: t = strata.asarray(u)[1:, ::-2]", np.asarray(t).ctypes.data, t.shape, t.strides),
    ("NumPy: np.asarray(t)", n.ctypes.data, n.shape, n.strides),
    ("PyTorch: torch.from_dlpack(strata.asarray(u)[1:, 1::2].T)", p.data_ptr(), tuple(p.shape),
     tuple(s * p.element_size() for s in p.stride())),
]
colours = ["#1f77b4", "#2ca02c", "#d62728"]
cell, gap = 34, 6
width = 900
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="400" '
       'font-family="sans-serif" font-size="12">',
       f'<text x="20" y="22" font-size="14">One buffer, three libraries: each view\'s elements '
       'joined to the cells they address (from data pointers and strides)</text>']
buffer_y = 320
for k in range(12):
    x = 30 + k * (cell + gap)
    out.append(f'<rect x="{x}" y="{buffer_y}" width="{cell}" height="{cell}" fill="#eee" stroke="#555"/>')
    out.append(f'<text x="{x + cell / 2}" y="{buffer_y + 21}" text-anchor="middle">{buffer[k]:g}</text>')
    out.append(f'<text x="{x + cell / 2}" y="{buffer_y + cell + 14}" text-anchor="middle" '
               f'font-size="10" fill="#777">{k * 8}</text>')
out.append(f'<text x="30" y="{buffer_y - 8}" fill="#555">the buffer: u = np.arange(12.0).reshape(3, 4) '
           '(byte addresses below)</text>')
for v, (title, pointer, shape, strides) in enumerate(views):
    out.append(f'<text x="30" y="{48 + 18 * v}" fill="{colours[v]}">{title}: shape {shape}, '
               f'strides {strides} bytes, first element at byte {pointer - base}</text>')
    left = 30 + v * 4 * (cell + gap)
    out.append(f'<text x="{left}" y="130" fill="{colours[v]}">{title.split(":")[0]}</text>')
    for i in range(shape[0]):
        for j in range(shape[1]):
            x = left + (i * shape[1] + j) * (cell + gap)
            y = 140
            address = (pointer - base) + i * strides[0] + j * strides[1]
            cx = 30 + address // 8 * (cell + gap) + cell / 2
            out.append(f'<line x1="{x + cell / 2}" y1="{y + cell}" x2="{cx}" y2="{buffer_y}" '
                       f'stroke="{colours[v]}" stroke-opacity="0.45"/>')
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="white" '
                       f'stroke="{colours[v]}"/>')
            out.append(f'<text x="{x + cell / 2}" y="{y + 14}" text-anchor="middle" font-size="10">'
                       f'[{i},{j}]</text>')
            out.append(f'<text x="{x + cell / 2}" y="{y + 28}" text-anchor="middle">'
                       f'{buffer[address // 8]:g}</text>')
out.append('</svg>')
target = pathlib.Path(__file__).parent / "images" / "interop_buffer.svg"
target.write_text("\n".join(out) + "\n")
print("wrote", target)

"""Minimal PNG reading and writing for the demo checks (no PIL/numpy on the CI machine).

read_png handles what libpng's simplified writer produces and the demo photograph: 8-bit,
non-interlaced grey, RGB or RGBA. Pixels come back as a flat list of RGB bytes (grey expanded,
alpha dropped).
"""
import struct
import zlib


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    channels = {0: 1, 2: 3, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace:
        raise ValueError("%s: only 8-bit non-interlaced grey/RGB/RGBA PNGs are read" % path)
    raw = zlib.decompress(idat)
    stride = w * channels
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        c = channels
        if ftype == 1:
            for i in range(c, stride):
                line[i] = (line[i] + line[i - c]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - c] if i >= c else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - c] if i >= c else 0
                b = prev[i]
                cc = prev[i - c] if i >= c else 0
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                line[i] = (line[i] + pred) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if channels == 3:
        return w, h, out
    rgb = bytearray(w * h * 3)
    for i in range(w * h):
        if channels == 1:
            rgb[3 * i:3 * i + 3] = bytes([out[i]]) * 3
        else:
            rgb[3 * i:3 * i + 3] = out[4 * i:4 * i + 3]
    return w, h, rgb


def write_png(path, w, h, rgb):
    raw = b"".join(b"\x00" + bytes(rgb[y * w * 3:(y + 1) * w * 3]) for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def pad_image(w, h, rgb, left, top, new_w, new_h, value):
    """The picture placed at (left, top) on a new_w x new_h canvas of grey `value`."""
    out = bytearray([value]) * (new_w * new_h * 3)
    for y in range(h):
        dst = ((y + top) * new_w + left) * 3
        out[dst:dst + w * 3] = rgb[y * w * 3:(y + 1) * w * 3]
    return out

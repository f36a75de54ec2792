/**
 * LZMA streams of six lumps of `tf2-bsp_tool/test_physcollide.bsp` (planes, vertexes, faces,
 * edges, surfedges, texdata_string_data), made by liblzma's LZMA1 encoder (Python 3
 * `lzma.compress(lump, format=lzma.FORMAT_ALONE, preset=6)`): the 5 property bytes, then the
 * raw stream (the 8-byte size of the .lzma header dropped, as Valve's lump header stores the
 * sizes itself). Base64. withLzmaLumps rebuilds the map with these lumps compressed.
 */
export const LZMA_LUMPS: readonly { index: number; size: number; propsAndStream: string }[] = [
  { index: 1, size: 3520, propsAndStream: 'XQAAgAAAAGueWXBmf+hfRRQL2xF24pPjSc+UoJF/5UYj5fcKG9E8h0dfk49nWYz4lFn1pe8mAsErFu8w6UXyGCRuOCtvVrv7SnfGgIHsQhc8Vl0S497WQrBrlQmopvZ4QfHuafeE7gTPc+j9tr1AEHerre0yBWRB9DQoEZOqSC/MdlvKoQPEeWjtL9GidkKJ5IRwAjaoBU+3Q2eERr5H5rdaUzSVA+w/bmXYppKwM5kqfLMHJbRGoe+sC3uXYE+ljU0uE41KeCYxJYH2elBy0FcXnqEBMo0BrkDlF2XANysBCEXcaQpbwRxoCTuTBWCy7vTE2fQn2C3v4VYRKz/QRlmq28GYDCP6s27EpJfp2Zb7EGnba9r0bclv4G4a77plXV4kL6vepD7g1PbTuBUuF/ffJ7lZXI6NIVBcebk73rt6nCsIFSJG+uzJ18U+f4LmpdQImYN1Qs7rplU4OgR9rkPLmZwDi1Rv8tbroyeDJaQd63DyoyA7RisIS55adkbADWlWMgeu2pTzkSKSWjh806/7baRFj51K4pR4vq9M5VrQZ2Oc9Cs6q4CYGv/YEnP3' },
  { index: 3, size: 828, propsAndStream: 'XQAAgAAAAG3OTPgzMI8+iVXE+GEXzYEOzhEBzolVIJmv86YUqnHc1styaNKKt1C3sASdT4m++rtrQp8mfBe4J+t1zj9PJSVWw1K9nVfqPMdFtwr7X0bsND2U0AP1T2QYROzcoYVY5mU+jk9dF4MDaXafhm1sWs4JvhQQawSLjJ9fWH5Yp7r947/tjW02t/7zvTc=' },
  { index: 7, size: 2464, propsAndStream: 'XQAAgAAAC3/8TnwFAVDABfH+d3lK1cbY+6dHRD0y+wgn6iZcP6gjTRH49pdMBK504G2F3rSzyAZvidQ8P4fmyBtuuf5/+bS5DVLNY+wS9nuyDNCMEgTv3ujO/WAuaPqwPXeWLCLSqSkqIVAsDVsXdiXK7BRfwo2MUa7HUbTengpjV4RIcLb82EQ7AvpmKz/4I6A2RSFPIhuP+FZoaW3M3IgOZh3/a5tiZ9Hoq/EkiB1UPnsLOdzN6CNJN8qb2CyexTqCU/eILsHnvn95nCi+Gbwxh4g/p7S2s6McW3PBg6XNuEPletJTCDMVRdB06LHR8p/jHDijVaY53fkdhzoT/RH43oDrYqGCmpTBfc9mt1FbdxQPnbAXiCA/s+YVcQblGHnunxt8FVEwEWd4LjZaBc+1WmWq+MvORUDAda4+CaRPk6IKpY3XRvXytWCzzxr48fW88C2JFLeifZNRZS1DPFYJQ5Vjol6G96PFQp//3n8pPw==' },
  { index: 12, size: 596, propsAndStream: 'XQAAgAAAAGiHnd2jsHmxkx2v11V5lr26OMhiks7+ECW/CmGp3BBLDVQLXw7qdX2zS/Hn9tr2w8iDQCy436AAT8foF8g8m9Mdk6R8CvUZs4hV6XialOp52l3D+DcpcrxbHZpeRQ+Tu5UMvJT1EvKmx9o5MFYJ6sAk0Ea5dWoJLfzwi3V+QsX6nbmA1mLLybTz4O0RipteHaMudanqgDWM2s3pkelWqOnxDrsDdYr6Oeh0a7YW9dzHM5qEowgJ832qFVxt5XCcyzisZc6Sg8FMLFhZZ+yTwhNs2LPySbUYgICiVi/9KXoDoK9c5a8gy9FO+kFcwX5A//h90Vw=' },
  { index: 13, size: 1088, propsAndStream: 'XQAAgAAAAIA8ejy+AuPXgRV6cBMf0f8ik5s+PkO5j8V+I+CPJgiC6QbM0AQVeHLZBbdwIEKV3/a6g5RMmKDTVttGk/boMdyBM8g1AGrmZFPaM70sxynFx2eyD0mPTajubHogns3jLnS5mEfWjyhedZo6WSN7umTDJwRdyTMm2Q3sS/4g+KiN2+QFDuy8taZpkEcDiW8mW0OjzyUdupR/Uz2auW0HC1YlDyVEeJbOajsZD2n8B0T7poBF1dO5YdXkItb+ZDuwyi1Fu78RK8iB7hIH/RRCFW1rKdOAyh+gq8wHDHvLfw3qq7y7rAgnG07KKtunrBKwDmolR62vi1NQzD9qtSyqJIyKJBnYcQ/QGPvoyIqGvOqYXhxX6g7Oatsvg5r8J8hu49yWieGE3Fr3Uy2MQmXDGCrnA0plM6eWP+aO+n+uRF9R644NYtb/fhGB14CWleeSPqqmqlNPvOix/TG9WM00pMUMte0tKcQNxU0FFD/I9aBXSSRpDP//h/gAAA==' },
  { index: 43, size: 122, propsAndStream: 'XQAAgAAAIZVGkJjvWlB7Fvuc3aHqm5DnGsYZvFRM5wvJ2bDkrM+S/ig4LFpvK851l0dvuJ/gjNwF+UWH7dQZ7GKcWssRWgX6bX6A' },
];

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

export function lzmaPropsAndStream(entry: { propsAndStream: string }): Uint8Array {
  return new Uint8Array(Buffer.from(entry.propsAndStream, 'base64'));
}

/**
 * `map` (test_physcollide.bsp) with the LZMA_LUMPS replaced by Valve-style LZMA lumps (the
 * 17-byte header: `LZMA`, actual size, stream size, 5 property bytes) appended at its end,
 * 4-aligned. `edit` may change a lump's header or stream before it is placed.
 */
export function withLzmaLumps(map: Uint8Array, edit?: (header: DataView, stream: Uint8Array, index: number) => void): Uint8Array {
  const lumps = LZMA_LUMPS.map((l) => {
    const ps = lzmaPropsAndStream(l);
    const stream = ps.subarray(5);
    const lump = new Uint8Array(17 + stream.length);
    const h = view(lump);
    lump.set([0x4c, 0x5a, 0x4d, 0x41]);
    h.setUint32(4, l.size, true);
    h.setUint32(8, stream.length, true);
    lump.set(ps.subarray(0, 5), 12);
    lump.set(stream, 17);
    edit?.(h, lump.subarray(17), l.index);
    return { index: l.index, lump };
  });
  const out = new Uint8Array(map.length + lumps.reduce((n, l) => n + ((l.lump.length + 3) & ~3), 0));
  out.set(map);
  let end = map.length;
  for (const { index, lump } of lumps) {
    out.set(lump, end);
    view(out).setInt32(8 + index * 16, end, true);
    view(out).setInt32(12 + index * 16, lump.length, true);
    end += (lump.length + 3) & ~3;
  }
  return out;
}

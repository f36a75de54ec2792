/*
 * What Walkbench calls in zlib-deflate.wasm: a whole-buffer deflate into a zlib stream with
 * zlib's defaults (windowBits 15, memLevel 8, Z_DEFAULT_STRATEGY), as
 * pako.deflate(data, { level }) does. Built by build-zlib-wasm.mjs beside this file.
 *
 * Input is given whole, as pako does: the bytes zlib writes at levels 1-9 do not depend on
 * how the output space is split, but they may depend on how the input is fed (the window
 * slides at other moments), so it is never fed in pieces. No libc: zlib is built with
 * Z_SOLO and its state lives in a fixed arena.
 */
#include "zlib.h"

/* deflateInit2 at memLevel 8, windowBits 15 asks for about 262 KiB in 5 allocations. */
#define ARENA_BYTES (320u * 1024u)
static unsigned char arena[ARENA_BYTES] __attribute__((aligned(16)));
static unsigned long arena_used;
static unsigned char *stream_out_end;

static voidpf arena_alloc(voidpf opaque, uInt items, uInt size) {
  unsigned long long bytes = ((unsigned long long)items * size + 15u) & ~15ull;
  voidpf p;
  (void)opaque;
  if (bytes > ARENA_BYTES - arena_used) return Z_NULL;
  p = arena + arena_used;
  arena_used += (unsigned long)bytes;
  return p;
}

static void arena_free(voidpf opaque, voidpf address) {
  (void)opaque;
  (void)address;
}

/* The first byte past the module's data and stack: JS puts the input and output there. */
extern unsigned char __heap_base;

unsigned char *wb_heap_base(void) { return &__heap_base; }

static z_stream stream;
static int stream_open;

/*
 * Starts deflating in[0..in_len) into out[0..out_cap) at `level` (0-9): returns Z_OK or a
 * negative zlib error. out_cap must be compressBound(in_len) (the stream always fits).
 */
int wb_begin(int level, unsigned char *in, unsigned long in_len, unsigned char *out, unsigned long out_cap) {
  int rc;
  if (stream_open) deflateEnd(&stream);
  stream_open = 0;
  arena_used = 0;
  stream.zalloc = arena_alloc;
  stream.zfree = arena_free;
  stream.opaque = Z_NULL;
  rc = deflateInit(&stream, level);
  if (rc != Z_OK) return rc < 0 ? rc : Z_STREAM_ERROR;
  stream_open = 1;
  stream.next_in = in;
  stream.avail_in = (uInt)in_len;
  stream.next_out = out;
  stream.avail_out = 0;
  stream_out_end = out + out_cap;
  return Z_OK;
}

/*
 * Goes on deflating until at most `step` more bytes are written (Z_FINISH throughout, as
 * pako, which hands out 16 KiB at a time: at levels 1-9 the bytes do not depend on it).
 * Returns 1 when the stream is complete (its length: wb_total_out()), 0 when it is not
 * yet, or a negative zlib error. Returning to JS between steps lets V8 move the hot
 * functions to its optimizing tier during the first, long deflate of a process (a wasm
 * function already running is not replaced: V8 has no on-stack replacement for wasm).
 */
int wb_step(unsigned long step) {
  int rc;
  unsigned long left;
  if (!stream_open) return Z_STREAM_ERROR;
  left = (unsigned long)(stream_out_end - stream.next_out);
  stream.avail_out = (uInt)(step < left ? step : left);
  rc = deflate(&stream, Z_FINISH);
  if (rc == Z_STREAM_END) {
    deflateEnd(&stream);
    stream_open = 0;
    return 1;
  }
  if (rc == Z_OK && stream.next_out < stream_out_end) return 0;
  deflateEnd(&stream);
  stream_open = 0;
  return rc < 0 ? rc : Z_BUF_ERROR;
}

/* Bytes written by the last wb_begin/wb_step run. */
unsigned long wb_total_out(void) { return stream.total_out; }

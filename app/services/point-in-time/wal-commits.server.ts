import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { createGunzip } from "node:zlib";

/*
 * Counts the commit records of archived WAL between two positions: how many transactions a restore replayed.
 * pg_waldump would do it, but the embedded package ships no PostgreSQL tools besides initdb, pg_ctl and postgres,
 * and a system pg_waldump of another major version cannot read this WAL; so the records are walked here, reading
 * only their headers (PostgreSQL's access/xlogrecord.h and xlog_internal.h, stable since 9.5):
 *
 *   page header     24 bytes (40 on a segment's first page: XLP_LONG_HEADER, with the segment and page sizes)
 *   XLogRecord      xl_tot_len u32 @0, xl_xid u32 @4, xl_prev u64 @8, xl_info u8 @16, xl_rmid u8 @17, ... (24 bytes)
 *
 * A record starts 8-aligned, may cross pages (each page's header is skipped), and an XLOG_SWITCH record ends its
 * segment. A commit is rmgr RM_XACT_ID (1) with XLOG_XACT_COMMIT or XLOG_XACT_COMMIT_PREPARED as its operation.
 */

const SHORT_PAGE_HEADER = 24;
const LONG_PAGE_HEADER = 40;
const RECORD_HEADER = 24;
const RM_XLOG_ID = 0;
const RM_XACT_ID = 1;
const XLOG_SWITCH = 0x40;
const XLOG_XACT_OPMASK = 0x70;
const XACT_COMMITS = new Set([0x00, 0x30]);

/** `0/2000028` as a number: WAL positions stay far below 2^53 in any real cluster's life. */
export const parseLsn = (text: string): number => {
  const [high, low] = text.split("/");
  return Number.parseInt(high ?? "", 16) * 2 ** 32 + Number.parseInt(low ?? "", 16);
};

async function gunzipped(file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file).pipe(createGunzip())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The commit records of the WAL archived in `walDir` whose records start at or after `fromLsn` and before `toLsn`.
 * For each segment the newest timeline's file is read (a restore follows the latest timeline). Undefined when a
 * segment of the range is not in the archive.
 */
export async function countCommits(walDir: string, fromLsn: number, toLsn: number): Promise<number | undefined> {
  const byPosition = new Map<string, string>();
  for (const name of (await readdir(walDir)).filter((file) => /^[0-9A-F]{24}(\.partial)?\.gz$/.test(file)).sort()) {
    const position = name.slice(8, 24);
    const known = byPosition.get(position);
    if (
      !known ||
      (known.endsWith(".partial.gz") && !name.endsWith(".partial.gz")) ||
      name.slice(0, 8) > known.slice(0, 8)
    )
      byPosition.set(position, name);
  }
  let segmentSize = 0;
  let pageSize = 0;
  let loaded: { number: number; bytes: Buffer } | undefined;
  const segmentOf = async (lsn: number): Promise<Buffer | undefined> => {
    const number = Math.floor(lsn / segmentSize);
    if (loaded?.number === number) return loaded.bytes;
    const perLog = 2 ** 32 / segmentSize;
    const position = `${Math.floor(number / perLog)
      .toString(16)
      .padStart(8, "0")}${(number % perLog).toString(16).padStart(8, "0")}`.toUpperCase();
    const name = byPosition.get(position);
    if (!name) return undefined;
    loaded = { number, bytes: await gunzipped(path.join(walDir, name)) };
    return loaded.bytes;
  };

  // The first segment's long header gives the sizes.
  const firstName = byPosition.values().next().value;
  if (!firstName) return undefined;
  const first = await gunzipped(path.join(walDir, firstName));
  segmentSize = first.readUInt32LE(32);
  pageSize = first.readUInt32LE(36);
  if (!segmentSize || !pageSize) return undefined;

  const pageHeader = (lsn: number) => (lsn % segmentSize === 0 ? LONG_PAGE_HEADER : SHORT_PAGE_HEADER);
  /** Where `length` bytes of record data starting at `lsn` end, skipping the page headers they cross. */
  const advance = (lsn: number, length: number) => {
    let at = lsn;
    let left = length;
    while (left > 0) {
      if (at % pageSize === 0) at += pageHeader(at);
      const take = Math.min(pageSize - (at % pageSize), left);
      at += take;
      left -= take;
    }
    return at;
  };
  const readHeader = async (lsn: number): Promise<Buffer | undefined> => {
    const header = Buffer.alloc(RECORD_HEADER);
    let at = lsn;
    let filled = 0;
    while (filled < RECORD_HEADER) {
      if (at % pageSize === 0) at += pageHeader(at);
      const segment = await segmentOf(at);
      if (!segment) return undefined;
      const offset = at % segmentSize;
      const take = Math.min(pageSize - (at % pageSize), RECORD_HEADER - filled);
      segment.copy(header, filled, offset, offset + take);
      filled += take;
      at += take;
    }
    return header;
  };

  let commits = 0;
  let lsn = fromLsn;
  while (lsn < toLsn) {
    if (lsn % pageSize === 0) lsn += pageHeader(lsn);
    const header = await readHeader(lsn);
    if (!header) return undefined;
    const totalLength = header.readUInt32LE(0);
    if (totalLength < RECORD_HEADER) break;
    const info = header.readUInt8(16);
    const rmid = header.readUInt8(17);
    if (rmid === RM_XACT_ID && XACT_COMMITS.has(info & XLOG_XACT_OPMASK)) commits += 1;
    if (rmid === RM_XLOG_ID && (info & 0xf0) === XLOG_SWITCH) lsn = (Math.floor(lsn / segmentSize) + 1) * segmentSize;
    else lsn = Math.ceil(advance(lsn, totalLength) / 8) * 8;
  }
  return commits;
}

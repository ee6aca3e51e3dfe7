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
 * The archived files of `walDir` by segment position (the name's last 16 hex digits), oldest first: for each, the
 * newest timeline's file, and a whole file rather than a `.partial` one.
 */
async function newestFileOfEachSegment(walDir: string): Promise<Map<string, string>> {
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
  return byPosition;
}

/** The archive read as one stream of WAL: its sizes, from the first segment's long page header, and one segment kept. */
type WalReader = {
  walDir: string;
  byPosition: Map<string, string>;
  segmentSize: number;
  pageSize: number;
  loaded?: { number: number; bytes: Buffer };
};

async function openWal(walDir: string): Promise<WalReader | undefined> {
  const byPosition = await newestFileOfEachSegment(walDir);
  const firstName = byPosition.values().next().value;
  if (!firstName) return undefined;
  const first = await gunzipped(path.join(walDir, firstName));
  const segmentSize = first.readUInt32LE(32);
  const pageSize = first.readUInt32LE(36);
  if (!segmentSize || !pageSize) return undefined;
  return { walDir, byPosition, segmentSize, pageSize };
}

/** The segment holding `lsn`, unzipped; undefined when the archive does not have it. */
async function segmentOf(wal: WalReader, lsn: number): Promise<Buffer | undefined> {
  const number = Math.floor(lsn / wal.segmentSize);
  if (wal.loaded?.number === number) return wal.loaded.bytes;
  const perLog = 2 ** 32 / wal.segmentSize;
  const position = `${Math.floor(number / perLog)
    .toString(16)
    .padStart(8, "0")}${(number % perLog).toString(16).padStart(8, "0")}`.toUpperCase();
  const name = wal.byPosition.get(position);
  if (!name) return undefined;
  wal.loaded = { number, bytes: await gunzipped(path.join(wal.walDir, name)) };
  return wal.loaded.bytes;
}

const pageHeaderAt = (wal: WalReader, lsn: number) =>
  lsn % wal.segmentSize === 0 ? LONG_PAGE_HEADER : SHORT_PAGE_HEADER;

/** Where `length` bytes of record data starting at `lsn` end, skipping the page headers they cross. */
function advance(wal: WalReader, lsn: number, length: number): number {
  let at = lsn;
  let left = length;
  while (left > 0) {
    if (at % wal.pageSize === 0) at += pageHeaderAt(wal, at);
    const take = Math.min(wal.pageSize - (at % wal.pageSize), left);
    at += take;
    left -= take;
  }
  return at;
}

/** The XLogRecord header of the record at `lsn`, gathered across a page boundary; undefined past the archive. */
async function readRecordHeader(wal: WalReader, lsn: number): Promise<Buffer | undefined> {
  const header = Buffer.alloc(RECORD_HEADER);
  let at = lsn;
  let filled = 0;
  while (filled < RECORD_HEADER) {
    if (at % wal.pageSize === 0) at += pageHeaderAt(wal, at);
    const segment = await segmentOf(wal, at);
    if (!segment) return undefined;
    const offset = at % wal.segmentSize;
    const take = Math.min(wal.pageSize - (at % wal.pageSize), RECORD_HEADER - filled);
    segment.copy(header, filled, offset, offset + take);
    filled += take;
    at += take;
  }
  return header;
}

/**
 * The commit records of the WAL archived in `walDir` whose records start at or after `fromLsn` and before `toLsn`.
 * For each segment the newest timeline's file is read (a restore follows the latest timeline). Undefined when a
 * segment of the range is not in the archive.
 */
export async function countCommits(walDir: string, fromLsn: number, toLsn: number): Promise<number | undefined> {
  const wal = await openWal(walDir);
  if (!wal) return undefined;
  let commits = 0;
  let lsn = fromLsn;
  while (lsn < toLsn) {
    if (lsn % wal.pageSize === 0) lsn += pageHeaderAt(wal, lsn);
    const header = await readRecordHeader(wal, lsn);
    if (!header) return undefined;
    const totalLength = header.readUInt32LE(0);
    if (totalLength < RECORD_HEADER) break;
    const info = header.readUInt8(16);
    const rmid = header.readUInt8(17);
    if (rmid === RM_XACT_ID && XACT_COMMITS.has(info & XLOG_XACT_OPMASK)) commits += 1;
    if (rmid === RM_XLOG_ID && (info & 0xf0) === XLOG_SWITCH)
      lsn = (Math.floor(lsn / wal.segmentSize) + 1) * wal.segmentSize;
    else lsn = Math.ceil(advance(wal, lsn, totalLength) / 8) * 8;
  }
  return commits;
}

import type { Response } from 'express';

/**
 * CSV for spreadsheets: RFC 4180 quoting, and text that a spreadsheet would run as a formula
 * (starting with = + - @ tab or CR) is prefixed with a quote. Plain numbers stay numbers.
 */
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** Writes rows batch by batch, waiting for the socket to drain: memory stays flat for any size. */
export async function streamCsv<Row>(
  res: Response,
  filename: string,
  headers: string[],
  batches: AsyncIterable<Row[]>,
  toCells: (row: Row) => unknown[],
) {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  const write = (chunk: string) =>
    res.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', () => resolve()));
  await write(csvLine(headers));
  for await (const rows of batches) {
    if (res.destroyed) return;
    await write(rows.map((row) => csvLine(toCells(row))).join(''));
  }
  res.end();
}

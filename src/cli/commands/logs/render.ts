import type { ChalkInstance } from 'chalk';
import type { RequestLogJson } from '../../../domain/request-log.js';
import { printable } from '../../output.js';

export type LogEntryJson = RequestLogJson;

export function statusColour(c: ChalkInstance, status: number): string {
  const s = String(status);
  return status >= 500 ? c.red(s) : status >= 400 ? c.yellow(s) : c.green(s);
}

export function formatDurationMs(ms: number): string {
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)}ms`;
}

/** One line: "2026-11-21 09:14:03.123 UTC POST   /api/v1/event 200 1.20ms" (`zone`: "UTC (emulated)" under a test clock). */
export function logLine(c: ChalkInstance, e: LogEntryJson, zone = 'UTC'): string {
  return `${c.dim(`${e.created_at.slice(0, 23).replace('T', ' ')} ${zone}`)} ${printable(e.method).padEnd(6)} ${printable(e.path)} ${statusColour(c, e.status)} ${formatDurationMs(e.duration_ms)}`;
}

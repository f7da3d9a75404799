import { describe, expect, it } from 'vitest';
import { encodeChirpstackUp } from './chirpstack.ts';
import type { DeviceReport } from './message.ts';
import { decodeNativeReport, encodeNativeReport } from './native.ts';
import { decodeRecordedReport, isRecordedAgain } from './recorded.ts';
import { decodeTcpDeviceMessage, encodeTcpReport, encodeTcpResult, FRAME_HEADER_BYTES } from './tcp-frame.ts';

const report: Omit<DeviceReport, 'kind'> = {
  messageId: 'r-000001',
  reportedAt: 1_764_000_000_000,
  event: 'lockChanged',
  lock: 'open',
  door: 'closed',
  battery: 87.5,
  rssi: -71,
  runState: 'normal',
  props: { temperature: 21.5, tamper: false, mode: 'auto' },
};

describe('history records read again from their raw text', () => {
  it('keeps the content of command results, ChirpStack events and NB-IoT bodies, and of no report it can decode again', () => {
    const asReport = { kind: 'report', messageId: 'm' } as const;
    const asResult = { kind: 'commandResult', messageId: 'm', commandId: 'c', outcome: 'Success' } as const;
    expect(isRecordedAgain('mqtt', asReport)).toBe(true);
    expect(isRecordedAgain('tcp', asReport)).toBe(true);
    expect(isRecordedAgain('mqtt', asResult)).toBe(false);
    expect(isRecordedAgain('tcp', asResult)).toBe(false);
    expect(isRecordedAgain('chirpstack', asReport)).toBe(false);
    expect(isRecordedAgain('nbiot', asReport)).toBe(false);
  });

  it('gives a native report exactly as ingest decoded it', () => {
    const raw = encodeNativeReport(report);
    const atIngest = decodeNativeReport(raw);
    expect(atIngest.ok).toBe(true);
    expect(decodeRecordedReport('mqtt', raw)).toEqual(atIngest.ok ? atIngest.value : null);
  });

  it('gives a TcpDirect report frame exactly as ingest decoded it', () => {
    const frame = encodeTcpReport(report);
    const body = frame.subarray(FRAME_HEADER_BYTES);
    const atIngest = decodeTcpDeviceMessage(body);
    expect(atIngest.ok && atIngest.value.type === 'report').toBe(true);
    expect(decodeRecordedReport('tcp', body.toString('utf8'))).toEqual(
      atIngest.ok && atIngest.value.type === 'report' ? atIngest.value.report : undefined,
    );
  });

  it('answers null for what is not a report of its protocol (a native result is told apart by its topic only)', () => {
    expect(decodeRecordedReport('mqtt', '{')).toBeNull();
    expect(
      decodeRecordedReport(
        'tcp',
        encodeTcpResult({ messageId: 'a1', commandId: 'c1', outcome: 'Failure' })
          .subarray(FRAME_HEADER_BYTES)
          .toString('utf8'),
      ),
    ).toBeNull();
    const up = encodeChirpstackUp({
      applicationId: 'app-1',
      devEui: '0011223344556677',
      deduplicationId: 'd-1',
      time: new Date(report.reportedAt ?? 0),
      fCnt: 1,
      fPort: 10,
      data: new Uint8Array([1, 2, 3]),
      rssi: -80,
    });
    expect(decodeRecordedReport('chirpstack', up)).toBeNull();
    expect(decodeRecordedReport('nbiot', '{}')).toBeNull();
  });
});

import type { DeviceMessage, DeviceProtocol, DeviceReport } from './message.ts';
import { decodeNativeReport } from './native.ts';
import { decodeTcpDeviceMessage } from './tcp-frame.ts';

/**
 * Whether a message's decoded content can be read again from its raw text alone, so that the device history
 * need not keep both: a native MQTT report (the payload of an `up` topic) and a TcpDirect report frame are
 * self-contained, and decoding them is pure. A command result (its kind comes from the topic), a ChirpStack
 * event (its name comes from the topic) and an NB-IoT callback body (its platform comes from the URL, and
 * one body holds several messages) are not.
 */
export function isRecordedAgain(protocol: DeviceProtocol, message: DeviceMessage): boolean {
  return message.kind === 'report' && (protocol === 'mqtt' || protocol === 'tcp');
}

/**
 * The report a history record's raw text holds, for a record whose content was not kept
 * (`isRecordedAgain`); null when the raw text is not such a report. A native payload is read as a report
 * whatever it holds (ingest told a report from a result by its topic), which is why a result's content is
 * always kept.
 */
export function decodeRecordedReport(protocol: DeviceProtocol, raw: string): DeviceReport | null {
  if (protocol === 'mqtt') {
    const report = decodeNativeReport(raw);
    return report.ok ? report.value : null;
  }
  if (protocol === 'tcp') {
    const frame = decodeTcpDeviceMessage(new TextEncoder().encode(raw));
    return frame.ok && frame.value.type === 'report' ? frame.value.report : null;
  }
  return null;
}

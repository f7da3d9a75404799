import {
  type Lang,
  OPEN_REFUSAL_CODES,
  type OpenMethod,
  type OperationAction,
  type OperationRecordRow,
  type OperationResult,
  type OperationSource,
  type Translated,
  translateResult,
} from '@uiot/contracts';
import { type ExportColumn, exportTime, timeHeader } from '../admin/index.ts';

/**
 * The words of an operation record where the server writes them itself (exports), the same as the
 * console's (`tasks.json`: `operation.action.*`, `operation.method.*`, `operation.source.*`,
 * `operation.result.*`).
 */
export const ACTION_TEXT: Record<OperationAction, Translated> = {
  open: { 'zh-CN': '开锁', en: 'Open', 'zh-TW': '開鎖' },
  close: { 'zh-CN': '关锁', en: 'Close', 'zh-TW': '關鎖' },
};

export const METHOD_TEXT: Record<OpenMethod, Translated> = {
  remote: { 'zh-CN': '远程', en: 'Remote', 'zh-TW': '遠程' },
  key: { 'zh-CN': '钥匙', en: 'Key', 'zh-TW': '鑰匙' },
  pin: { 'zh-CN': '动态密码', en: 'PIN', 'zh-TW': '動態密碼' },
  bluetooth: { 'zh-CN': '蓝牙', en: 'Bluetooth', 'zh-TW': '藍牙' },
};

export const SOURCE_TEXT: Record<OperationSource, Translated> = {
  console: { 'zh-CN': '控制台', en: 'Console', 'zh-TW': '控制台' },
  client: { 'zh-CN': '客户端', en: 'Client', 'zh-TW': '用戶端' },
  device: { 'zh-CN': '锁上报', en: 'Reported by the lock', 'zh-TW': '鎖上報' },
};

export const RESULT_TEXT: Record<OperationResult, Translated> = {
  refused: { 'zh-CN': '已拒绝', en: 'Refused', 'zh-TW': '已拒絕' },
  sent: { 'zh-CN': '已发送', en: 'Sent', 'zh-TW': '已傳送' },
  succeeded: { 'zh-CN': '成功', en: 'Succeeded', 'zh-TW': '成功' },
  failed: { 'zh-CN': '失败', en: 'Failed', 'zh-TW': '失敗' },
  reported: { 'zh-CN': '锁已上报', en: 'Reported', 'zh-TW': '鎖已上報' },
};

const COVERED_TEXT: Record<'yes' | 'no', Translated> = {
  yes: { 'zh-CN': '是', en: 'Yes', 'zh-TW': '是' },
  no: { 'zh-CN': '否（已告警）', en: 'No (alarm raised)', 'zh-TW': '否（已告警）' },
};

/** The result description: the refusal's message, or the result's word. */
export function resultDescription(row: OperationRecordRow, lang: Lang): string {
  if (row.refusal) return translateResult(OPEN_REFUSAL_CODES[row.refusal], lang) ?? row.refusal;
  return RESULT_TEXT[row.result][lang];
}

export function operationExportColumns(lang: Lang): readonly ExportColumn<OperationRecordRow>[] {
  return [
    { header: timeHeader('操作时间', 'Operation time', '操作時間'), cell: (r) => exportTime(r.operateTime) },
    { header: { 'zh-CN': '设备名称', en: 'Device name', 'zh-TW': '設備名稱' }, cell: (r) => r.deviceName },
    { header: { 'zh-CN': '设备编码', en: 'Device code', 'zh-TW': '設備編碼' }, cell: (r) => r.deviceCode },
    {
      header: { 'zh-CN': '操作', en: 'Operation', 'zh-TW': '操作' },
      cell: (r) => ACTION_TEXT[r.action][lang],
    },
    { header: { 'zh-CN': '操作人', en: 'Operator', 'zh-TW': '操作人' }, cell: (r) => r.staffName },
    {
      header: { 'zh-CN': '开锁方式', en: 'Method', 'zh-TW': '開鎖方式' },
      cell: (r) => (r.opMethod ? METHOD_TEXT[r.opMethod][lang] : ''),
    },
    { header: { 'zh-CN': '结果', en: 'Result', 'zh-TW': '結果' }, cell: (r) => resultDescription(r, lang) },
    { header: { 'zh-CN': '任务名称', en: 'Task', 'zh-TW': '任務名稱' }, cell: (r) => r.taskName },
    { header: { 'zh-CN': '钥匙', en: 'Key', 'zh-TW': '鑰匙' }, cell: (r) => r.keyName },
    { header: { 'zh-CN': '锁码', en: 'Lock code', 'zh-TW': '鎖碼' }, cell: (r) => r.lockCode },
    { header: { 'zh-CN': '来源', en: 'Source', 'zh-TW': '來源' }, cell: (r) => SOURCE_TEXT[r.source][lang] },
    {
      header: { 'zh-CN': '有任务或授权', en: 'Covered', 'zh-TW': '有任務或授權' },
      cell: (r) => (r.covered === null ? '' : COVERED_TEXT[r.covered ? 'yes' : 'no'][lang]),
    },
    { header: timeHeader('上传时间', 'Upload time', '上傳時間'), cell: (r) => exportTime(r.uploadTime) },
  ];
}

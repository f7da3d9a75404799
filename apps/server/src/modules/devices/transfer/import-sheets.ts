import type { ImportKind, Lang, Translated } from '@uiot/contracts';

/**
 * The columns of the import templates (and of the ledger export, which reuses the device columns so an
 * export can be edited and imported again).
 *
 * A column is known by a stable key, written as the note of its header cell; the title is written in the
 * language of the request. The importer finds a column by the key in the note, or else by its title in
 * any of the three languages, so a template downloaded in one language imports under any other.
 */
export interface SheetColumn {
  key: string;
  title: Translated;
  required?: boolean;
  /** Formatted as text in the template, so Excel keeps digits such as an IMEI as they are typed. */
  text?: boolean;
  width?: number;
}

const t = (en: string, zhCN: string, zhTW: string): Translated => ({ en, 'zh-CN': zhCN, 'zh-TW': zhTW });

const name = t('Name', '名称', '名稱');
const description = t('Description', '描述', '描述');
const deptName = t('Department', '部门', '部門');
const staffName = t('Staff', '人员', '人員');

/** Units: the parent is written as the path of names from the top, e.g. `Line 1/Station A`. */
export const UNIT_COLUMNS: readonly SheetColumn[] = [
  { key: 'name', title: name, required: true, width: 24 },
  { key: 'parentPath', title: t('Parent unit path', '上级单元路径', '上級單元路徑'), width: 36 },
  { key: 'menuName', title: t('Menu name', '菜单名称', '選單名稱'), width: 20 },
  { key: 'sortIndex', title: t('Order', '排序', '排序'), width: 10 },
  { key: 'typeId', title: t('Type', '类型', '類型'), width: 16 },
  { key: 'desc', title: description, width: 32 },
];

export const DEVICE_COLUMNS: readonly SheetColumn[] = [
  { key: 'name', title: name, required: true, width: 24 },
  {
    key: 'unitPath',
    title: t('Operation unit path', '操作单元路径', '操作單元路徑'),
    required: true,
    width: 36,
  },
  {
    key: 'typeCode',
    title: t('Device type code', '设备类型编码', '設備類型編碼'),
    required: true,
    text: true,
    width: 18,
  },
  { key: 'code', title: t('Device code', '设备编码', '設備編碼'), text: true, width: 18 },
  { key: 'imei', title: t('IMEI', 'IMEI', 'IMEI'), text: true, width: 18 },
  { key: 'imsi', title: t('IMSI', 'IMSI', 'IMSI'), text: true, width: 18 },
  { key: 'iotType', title: t('IoT platform', '物联网平台', '物聯網平台'), width: 16 },
  { key: 'netType', title: t('Network type', '网络类型', '網絡類型'), width: 14 },
  { key: 'category', title: t('Category', '类别', '類別'), width: 10 },
  { key: 'lng', title: t('Longitude', '经度', '經度'), width: 14 },
  { key: 'lat', title: t('Latitude', '纬度', '緯度'), width: 14 },
  { key: 'addr', title: t('Address', '地址', '地址'), width: 28 },
  { key: 'deptName', title: deptName, width: 18 },
  { key: 'staffName', title: staffName, width: 16 },
  { key: 'desc', title: description, width: 28 },
  { key: 'devEUI', title: t('DevEUI', 'DevEUI', 'DevEUI'), text: true, width: 20 },
  { key: 'appEUI', title: t('AppEUI', 'AppEUI', 'AppEUI'), text: true, width: 20 },
  { key: 'kmInfo', title: t('Kilometre post', '公里标', '公里標'), text: true, width: 14 },
  { key: 'line', title: t('Line', '线路', '線路'), width: 14 },
  { key: 'track', title: t('Track', '股道', '股道'), width: 12 },
  { key: 'door', title: t('Door', '门', '門'), width: 12 },
];

/** Lock codes name their device by its code, or by its exact name when no device has that code. */
export const LOCK_CODE_COLUMNS: readonly SheetColumn[] = [
  {
    key: 'device',
    title: t('Device code or name', '设备编码或名称', '設備編碼或名稱'),
    required: true,
    text: true,
    width: 24,
  },
  { key: 'rfidCode', title: t('RFID code', 'RFID 卡号', 'RFID 卡號'), required: true, text: true, width: 18 },
  { key: 'rfidType', title: t('RFID type', '卡类型', '卡類型'), width: 12 },
  { key: 'dnbs', title: t('DNBS', 'DNBS', 'DNBS'), text: true, width: 14 },
  { key: 'blueAddr', title: t('Bluetooth address', '蓝牙地址', '藍牙地址'), text: true, width: 20 },
  { key: 'effect', title: t('In effect (yes/no)', '是否生效（是/否）', '是否生效（是/否）'), width: 14 },
  { key: 'effectiveTime', title: t('Effective time', '生效时间', '生效時間'), width: 20 },
  { key: 'expirationTime', title: t('Expiration time', '失效时间', '失效時間'), width: 20 },
  { key: 'remark', title: t('Remark', '备注', '備註'), width: 28 },
];

export const KEY_COLUMNS: readonly SheetColumn[] = [
  { key: 'name', title: name, required: true, width: 24 },
  { key: 'code', title: t('Key code', '钥匙编码', '鑰匙編碼'), required: true, text: true, width: 18 },
  { key: 'staffName', title: staffName, width: 16 },
  { key: 'deptName', title: deptName, width: 18 },
  { key: 'desc', title: description, width: 28 },
];

export const IMPORT_COLUMNS: Record<ImportKind, readonly SheetColumn[]> = {
  unit: UNIT_COLUMNS,
  device: DEVICE_COLUMNS,
  lockCode: LOCK_CODE_COLUMNS,
  key: KEY_COLUMNS,
};

/** The sheet's name and the file's name of each template. */
export const TEMPLATE_NAMES: Record<ImportKind, { sheet: Translated; file: Translated }> = {
  unit: {
    sheet: t('Operation units', '操作单元', '操作單元'),
    file: t('operation-unit-template', '操作单元导入模板', '操作單元匯入範本'),
  },
  device: {
    sheet: t('Devices', '设备', '設備'),
    file: t('device-template', '设备导入模板', '設備匯入範本'),
  },
  lockCode: {
    sheet: t('Lock codes', '锁码', '鎖碼'),
    file: t('lock-code-template', '锁码导入模板', '鎖碼匯入範本'),
  },
  key: {
    sheet: t('Keys', '电脑钥匙', '電腦鑰匙'),
    file: t('key-template', '电脑钥匙导入模板', '電腦鑰匙匯入範本'),
  },
};

/** The header text of a column; a required column is marked with `*`. */
export function headerTitle(column: SheetColumn, lang: Lang): string {
  return column.required ? `${column.title[lang]} *` : column.title[lang];
}

/** A header text as compared: no `*` marks, no spaces, case ignored. */
export function normaliseTitle(text: string): string {
  return text.replace(/[*＊\s]/g, '').toLowerCase();
}

/**
 * The key of the column a header cell stands for: the key written in its note (any word of the note that
 * is a key of these columns), else the title in any language; undefined for a column the import ignores.
 */
export function columnKeyOf(
  columns: readonly SheetColumn[],
  headerText: string,
  noteText: string,
): string | undefined {
  const keys = new Set(columns.map((c) => c.key));
  const fromNote = noteText.split(/\s+/).find((word) => keys.has(word));
  if (fromNote) return fromNote;
  const wanted = normaliseTitle(headerText);
  if (wanted === '') return undefined;
  return columns.find((c) => Object.values(c.title).some((title) => normaliseTitle(title) === wanted))?.key;
}

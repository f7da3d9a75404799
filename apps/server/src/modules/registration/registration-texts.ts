import { formatMessage, type Lang, type Translated } from '@uiot/contracts';

/**
 * Title and content of the system message a registration leaves for the administrators (spec §3). The
 * name is the StaffID of MTR staff and the HKID of contractors (spec §2); one text per staff type.
 */
const title: Translated = {
  'zh-CN': '用户注册申请：{name}',
  en: 'Registration request: {name}',
  'zh-TW': '用戶註冊申請：{name}',
};

const content: Record<0 | 1, Translated> = {
  1: {
    'zh-CN': '港铁员工（StaffID：{name}，邮箱：{email}）申请注册账号，请审核。',
    en: 'MTR staff member (StaffID {name}, email {email}) asks for an account. Please review the registration.',
    'zh-TW': '港鐵員工（StaffID：{name}，電郵：{email}）申請註冊帳號，請審核。',
  },
  0: {
    'zh-CN': '承办商（HKID：{name}，邮箱：{email}）申请注册账号，请审核。',
    en: 'Contractor (HKID {name}, email {email}) asks for an account. Please review the registration.',
    'zh-TW': '承辦商（HKID：{name}，電郵：{email}）申請註冊帳號，請審核。',
  },
};

export function registrationMessageText(
  lang: Lang,
  registrant: { name: string; email: string; staffType: 0 | 1 },
): { title: string; content: string } {
  const params = { name: registrant.name, email: registrant.email };
  return {
    title: formatMessage(title[lang], params),
    content: formatMessage(content[registrant.staffType][lang], params),
  };
}

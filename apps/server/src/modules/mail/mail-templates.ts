import { formatMessage, type Lang, type Translated } from '@uiot/contracts';

/** A mail ready to send: subject and plain text, in one language. */
export interface MailContent {
  subject: string;
  text: string;
}

interface Template {
  subject: Translated;
  text: Translated;
}

/**
 * Every mail the system writes, in the three console languages. Parameters are filled by
 * `formatMessage`; a variant is a template of its own rather than a sentence built from fragments.
 */
const templates = {
  verificationCode: {
    subject: {
      'zh-CN': 'UIOT 锁控管理平台注册验证码',
      en: 'Your UIOT Lock Console verification code',
      'zh-TW': 'UIOT 鎖控管理平台註冊驗證碼',
    },
    text: {
      'zh-CN':
        '您好！\n\n您正在注册 UIOT 锁控管理平台账号，验证码为：{code}\n\n' +
        '验证码 {minutes} 分钟内有效，仅可使用一次。如非本人操作，请忽略此邮件。\n',
      en:
        'Hello,\n\nYou are registering an account of the UIOT Lock Console. Your verification code is: {code}\n\n' +
        'The code is valid for {minutes} minutes and can be used once. If you did not ask for it, ignore this mail.\n',
      'zh-TW':
        '您好！\n\n您正在註冊 UIOT 鎖控管理平台帳號，驗證碼為：{code}\n\n' +
        '驗證碼 {minutes} 分鐘內有效，僅可使用一次。如非本人操作，請忽略此郵件。\n',
    },
  },
  registrationApproved: {
    subject: {
      'zh-CN': 'UIOT 锁控管理平台账号注册已通过',
      en: 'Your UIOT Lock Console registration was approved',
      'zh-TW': 'UIOT 鎖控管理平台帳號註冊已通過',
    },
    text: {
      'zh-CN':
        '{name}，您好：\n\n您的 UIOT 锁控管理平台账号注册申请已审核通过，' +
        '现在可以使用注册时填写的用户名和密码登录。\n',
      en:
        'Hello {name},\n\nYour registration for the UIOT Lock Console has been approved. ' +
        'You can now sign in with the name and password you chose when registering.\n',
      'zh-TW':
        '{name}，您好：\n\n您的 UIOT 鎖控管理平台帳號註冊申請已審核通過，' +
        '現在可以使用註冊時填寫的用戶名稱和密碼登入。\n',
    },
  },
  registrationRejected: {
    subject: {
      'zh-CN': 'UIOT 锁控管理平台账号注册未通过',
      en: 'Your UIOT Lock Console registration was not approved',
      'zh-TW': 'UIOT 鎖控管理平台帳號註冊未通過',
    },
    text: {
      'zh-CN':
        '{name}，您好：\n\n很抱歉，您的 UIOT 锁控管理平台账号注册申请未通过审核。如有疑问，请联系系统管理员。\n',
      en:
        'Hello {name},\n\nWe are sorry: your registration for the UIOT Lock Console was not approved. ' +
        'If you have questions, please contact the system administrator.\n',
      'zh-TW':
        '{name}，您好：\n\n很抱歉，您的 UIOT 鎖控管理平台帳號註冊申請未通過審核。如有疑問，請聯絡系統管理員。\n',
    },
  },
  registrationRejectedWithRemark: {
    subject: {
      'zh-CN': 'UIOT 锁控管理平台账号注册未通过',
      en: 'Your UIOT Lock Console registration was not approved',
      'zh-TW': 'UIOT 鎖控管理平台帳號註冊未通過',
    },
    text: {
      'zh-CN':
        '{name}，您好：\n\n很抱歉，您的 UIOT 锁控管理平台账号注册申请未通过审核。\n\n审核意见：{remark}\n\n' +
        '如有疑问，请联系系统管理员。\n',
      en:
        'Hello {name},\n\nWe are sorry: your registration for the UIOT Lock Console was not approved.\n\n' +
        'Remark of the reviewer: {remark}\n\nIf you have questions, please contact the system administrator.\n',
      'zh-TW':
        '{name}，您好：\n\n很抱歉，您的 UIOT 鎖控管理平台帳號註冊申請未通過審核。\n\n審核意見：{remark}\n\n' +
        '如有疑問，請聯絡系統管理員。\n',
    },
  },
} satisfies Record<string, Template>;

export type MailTemplateName = keyof typeof templates;

function render(name: MailTemplateName, lang: Lang, params: Record<string, string | number>): MailContent {
  const template: Template = templates[name];
  return {
    subject: formatMessage(template.subject[lang], params),
    text: formatMessage(template.text[lang], params),
  };
}

/** The mails of self-registration (spec §4), each with the parameters it needs. */
export const mailTemplates = {
  verificationCode: (lang: Lang, p: { code: string; minutes: number }) => render('verificationCode', lang, p),
  registrationApproved: (lang: Lang, p: { name: string }) => render('registrationApproved', lang, p),
  registrationRejected: (lang: Lang, p: { name: string; remark?: string | null }) =>
    p.remark
      ? render('registrationRejectedWithRemark', lang, { name: p.name, remark: p.remark })
      : render('registrationRejected', lang, { name: p.name }),
};

/** For the template test: every template's texts. */
export const MAIL_TEMPLATES: Readonly<Record<MailTemplateName, Template>> = templates;

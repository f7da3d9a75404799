import CheckCircleFilled from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import InfoCircleFilled from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { useTranslation } from 'react-i18next';
import type { FeedbackKind, FeedbackSink } from '../feedback/feedback.ts';
import { createStore, useStore } from '../store/store.ts';
import { Icon } from './icon.tsx';

interface Notice {
  id: number;
  channel: 'toast' | 'notification';
  kind: FeedbackKind;
  title?: string;
  text: string;
}

/** As the console's antd App is set up: at most 3 toasts and 4 notifications at a time. */
const MAX_SHOWN = { toast: 3, notification: 4 } as const;

const ICONS: Record<FeedbackKind, IconDefinition> = {
  success: CheckCircleFilled,
  info: InfoCircleFilled,
  warning: ExclamationCircleFilled,
  error: CloseCircleFilled,
};

const notices = createStore<readonly Notice[]>([]);
let nextId = 1;

function dismiss(id: number): void {
  notices.set((list) => list.filter((notice) => notice.id !== id));
}

function show(notice: Omit<Notice, 'id'>, seconds: number): void {
  const id = nextId++;
  notices.set((list) => {
    const same = list.filter((shown) => shown.channel === notice.channel);
    const dropped = new Set(same.slice(0, Math.max(0, same.length + 1 - MAX_SHOWN[notice.channel])));
    return [...list.filter((shown) => !dropped.has(shown)), { ...notice, id }];
  });
  setTimeout(() => dismiss(id), seconds * 1000);
}

/** Toasts and notifications in the console's look, shown by `<LightFeedback />`. */
export const lightFeedback: FeedbackSink = {
  toast: (kind, text, seconds) => show({ channel: 'toast', kind, text }, seconds),
  notify: (kind, title, description, seconds) =>
    show({ channel: 'notification', kind, title, text: description ?? '' }, seconds),
};

/** Where `lightFeedback` shows them: render once, beside the pages shown before the console loads. */
export function LightFeedback() {
  const { t } = useTranslation('common');
  const list = useStore(notices);
  const role = (kind: FeedbackKind) => (kind === 'error' || kind === 'warning' ? 'alert' : 'status');
  return (
    <>
      <div className="uiot-toasts">
        {list
          .filter((notice) => notice.channel === 'toast')
          .map((notice) => (
            <div key={notice.id} className={`uiot-toast uiot-toast--${notice.kind}`} role={role(notice.kind)}>
              <span className="uiot-toast__icon" aria-hidden="true">
                <NoticeIcon kind={notice.kind} />
              </span>
              <span>{notice.text}</span>
            </div>
          ))}
      </div>
      <div className="uiot-notifications">
        {list
          .filter((notice) => notice.channel === 'notification')
          .map((notice) => (
            <div
              key={notice.id}
              className={`uiot-notification uiot-notification--${notice.kind}`}
              role={role(notice.kind)}
            >
              <span className="uiot-notification__icon" aria-hidden="true">
                <NoticeIcon kind={notice.kind} />
              </span>
              <div className="uiot-notification__body">
                <div className="uiot-notification__title">{notice.title}</div>
                {notice.text && <div className="uiot-notification__text">{notice.text}</div>}
              </div>
              <button
                type="button"
                className="uiot-plain-button uiot-notification__close"
                aria-label={t('action.close')}
                onClick={() => dismiss(notice.id)}
              >
                <Icon icon={CloseOutlined} />
              </button>
            </div>
          ))}
      </div>
    </>
  );
}

function NoticeIcon({ kind }: { kind: FeedbackKind }) {
  return <Icon icon={ICONS[kind]} />;
}

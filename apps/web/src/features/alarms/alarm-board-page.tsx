import { GlobalOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AlarmBoard,
  type AlarmBoardSession,
  type AlarmChange,
  api,
  consoleEventTopic,
  ResultCode,
} from '@uiot/contracts';
import { Button, Empty, Result, Spin } from 'antd';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { LanguageSwitch, useLang } from '../../lib/i18n/index.ts';
import { type RealtimeStatus, startDisplayChannel } from '../../lib/realtime/index.ts';
import { call, isRequestError, type RequestOptions } from '../../lib/request/index.ts';
import { getRuntimeConfig } from '../../lib/runtime-config/runtime-config.ts';
import { readItem, writeItem } from '../../lib/store/storage.ts';
import { useClock } from '../../lib/use-clock.ts';
import { applyAlarmChanges, openFor, takeBoardCode } from './alarm-board.ts';
import { SEVERITY_COLOURS } from './alarm-state.ts';
import { shownAlarmTexts } from './alarm-texts.ts';
import './alarm-board.css';

/** Where the board keeps its display token, so that a reload (or a restarted wall screen) goes on. */
const TOKEN_KEY = 'uiot.alarmBoard.token';
/** The board asks again now and then besides the live changes (and records its use). */
const REFRESH_MS = 60_000;

type Failure = 'invalid' | 'revoked' | 'missing' | 'unreachable';

/** Exchanges of one code: made once even when the page mounts twice. */
const exchanges = new Map<string, Promise<AlarmBoardSession>>();

function exchange(code: string): Promise<AlarmBoardSession> {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = call(
      api.alarmBoard.exchange,
      { body: { code } },
      { noToken: true, silent: true, noOverlay: true },
    );
    exchanges.set(code, pending);
  }
  return pending;
}

/** Calls of the display session: its token, and failures shown by the board itself. */
const displayOptions = (token: string): RequestOptions => ({
  token,
  silent: true,
  noOverlay: true,
  canCancel: false,
});

const codeOf = (error: unknown) => (isRequestError(error) ? error.code : undefined);

function failureOf(error: unknown): Failure {
  const code = codeOf(error);
  if (code === ResultCode.AlarmBoardRevoked) return 'revoked';
  if (code === ResultCode.AlarmBoardCodeInvalid) return 'invalid';
  return 'unreachable';
}

/** The display token: from the link's one-time code, or else the one kept from before. */
function useDisplayToken(): { token: string | null; failure: Failure | null; end(failure: Failure): void } {
  const [code] = useState(() =>
    takeBoardCode(window.location, (url) => window.history.replaceState(null, '', url)),
  );
  const [token, setToken] = useState<string | null>(() => (code ? null : readItem('local', TOKEN_KEY)));
  const [failure, setFailure] = useState<Failure | null>(() => (code || token ? null : 'missing'));
  useEffect(() => {
    if (!code) return;
    exchange(code).then(
      (session) => {
        writeItem('local', TOKEN_KEY, session.token);
        setToken(session.token);
      },
      (error: unknown) => {
        // A wall screen that opens its link again after a restart goes on with the session it has.
        const kept = readItem('local', TOKEN_KEY);
        if (kept && codeOf(error) === ResultCode.AlarmBoardCodeInvalid) setToken(kept);
        else setFailure(failureOf(error));
      },
    );
  }, [code]);
  return {
    token,
    failure,
    end: (ended) => {
      if (ended === 'revoked') writeItem('local', TOKEN_KEY, null);
      setToken(null);
      setFailure(ended);
    },
  };
}

function Duration({ warnTime, now }: { warnTime: string; now: number }) {
  const { t } = useTranslation('alarms');
  const { days, hours, minutes } = openFor(warnTime, now);
  if (days > 0) return <>{t('board.duration.days', { days, hours })}</>;
  if (hours > 0) return <>{t('board.duration.hours', { hours, minutes })}</>;
  return <>{t('board.duration.minutes', { minutes })}</>;
}

function BoardHeader({ board, status }: { board: AlarmBoard | undefined; status: RealtimeStatus }) {
  const { t } = useTranslation('alarms');
  return (
    <header className="uiot-board__header">
      <div>
        <h1 className="uiot-board__title" data-testid="board-title">
          {board ? t('board.title', { station: board.stationName }) : t('board.heading')}
        </h1>
        {board && <div className="uiot-board__subtitle">{board.name}</div>}
      </div>
      <div className="uiot-board__meta">
        <span
          className={`uiot-board__live uiot-board__live--${status}`}
          data-testid="board-live"
          data-status={status}
        >
          {t(`board.live.${status}`)}
        </span>
        {board && (
          <span className="uiot-board__count" data-testid="board-count">
            {t('board.count', { count: board.rows.length })}
          </span>
        )}
        <LanguageSwitch>
          <Button
            type="text"
            icon={<GlobalOutlined />}
            aria-label={t('board.language')}
            data-testid="lang-switch"
          />
        </LanguageSwitch>
      </div>
    </header>
  );
}

function BoardRows({ board }: { board: AlarmBoard }) {
  const { t } = useTranslation('alarms');
  const lang = useLang();
  const now = useClock().getTime();
  if (board.rows.length === 0) {
    return (
      <div className="uiot-board__empty" data-testid="board-empty">
        <Empty description={t('board.empty')} />
      </div>
    );
  }
  return (
    <table className="uiot-board__table" data-testid="board-table">
      <thead>
        <tr>
          <th>{t('board.column.severity')}</th>
          <th>{t('board.column.device')}</th>
          <th>{t('board.column.content')}</th>
          <th>{t('board.column.warnTime')}</th>
          <th>{t('board.column.duration')}</th>
        </tr>
      </thead>
      <tbody>
        {board.rows.map((row) => (
          <tr
            key={row.id}
            className={`uiot-board__row uiot-board__row--${row.severity}`}
            data-testid="board-row"
            data-alarm={row.id}
          >
            <td>
              <span
                className={`uiot-board__severity uiot-board__severity--${SEVERITY_COLOURS[row.severity]}`}
              >
                {t(`severity.${row.severity}`)}
              </span>
            </td>
            <td className="uiot-board__device">{row.deviceName}</td>
            <td className="uiot-board__content">
              {shownAlarmTexts(row, lang).content}
              {row.ackTime && <span className="uiot-board__ack">{t('board.acknowledged')}</span>}
            </td>
            <td className="uiot-board__time">{formatDateTime(row.warnTime)}</td>
            <td className="uiot-board__time">
              <Duration warnTime={row.warnTime} now={now} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BoardFailure({ failure }: { failure: Failure }) {
  const { t } = useTranslation('alarms');
  return (
    <div className="uiot-board__failure" data-testid="board-failure" data-failure={failure}>
      <Result
        status={failure === 'unreachable' ? 'warning' : 'error'}
        title={t(`board.failure.${failure}.title`)}
        subTitle={t(`board.failure.${failure}.text`)}
      />
    </div>
  );
}

/**
 * The control-room board (`/warningRecord`, docs/alarms.md): a station's open alarms for a wall screen,
 * without signing in. The link's one-time code is taken out of the address and exchanged for a display
 * session, kept for reloads while the link is not revoked; the alarms change live from the station's alarm
 * topic, and the board says so at once when its link is revoked.
 */
export function AlarmBoardPage() {
  const { token, failure, end } = useDisplayToken();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RealtimeStatus>('off');
  const queryKey = ['alarmBoard', token] as const;
  const board = useQuery({
    queryKey,
    queryFn: () => call(api.alarmBoard.openAlarms, undefined, displayOptions(token ?? '')),
    enabled: token !== null,
    refetchInterval: REFRESH_MS,
    retry: (count, error) => failureOf(error) === 'unreachable' && count < 3,
  });
  const stationId = board.data?.stationId;

  const onError = useEffectEvent((error: unknown) => {
    const ended = failureOf(error);
    if (ended !== 'unreachable') end(ended);
  });
  useEffect(() => {
    if (board.error) onError(board.error);
  }, [board.error]);

  const refresh = useEffectEvent(() => void board.refetch());
  const onChanges = useEffectEvent((changes: AlarmChange[]) => {
    queryClient.setQueryData<AlarmBoard>(queryKey, (current) =>
      current ? { ...current, rows: applyAlarmChanges(current.rows, changes) } : current,
    );
  });
  useEffect(() => {
    if (!token || !stationId) return;
    const stop = startDisplayChannel(
      {
        token,
        topic: consoleEventTopic(stationId, 'alarm'),
        login: () =>
          call(api.alarmBoard.brokerLogin, undefined, displayOptions(token)).then((login) => login.username),
        // A lost connection may be the link's revocation: the board asks, and says so.
        onStatus: (next) => {
          setStatus(next);
          if (next === 'reconnecting') refresh();
        },
        onSubscribed: refresh,
        onEvent: (event) => {
          if (event.kind === 'alarm') onChanges(event.changes);
        },
      },
      getRuntimeConfig(),
      window.location,
    );
    return () => {
      stop();
      setStatus('off');
    };
  }, [token, stationId]);

  return (
    <div className="uiot-board" data-testid="alarm-board">
      <BoardHeader board={failure ? undefined : board.data} status={status} />
      <main className="uiot-board__body">
        {failure ? (
          <BoardFailure failure={failure} />
        ) : board.data ? (
          <BoardRows board={board.data} />
        ) : board.error ? (
          <BoardFailure failure="unreachable" />
        ) : (
          <div className="uiot-board__empty">
            <Spin size="large" />
          </div>
        )}
      </main>
    </div>
  );
}

import { Spin } from 'antd';

/** Shown while the session or a route is being prepared. */
export function PageLoading() {
  return (
    <div className="uiot-center-page">
      <Spin size="large" />
    </div>
  );
}

import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  ClusterOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  HddOutlined,
  HistoryOutlined,
  HomeOutlined,
  KeyOutlined,
  LinkOutlined,
  LockOutlined,
  LoginOutlined,
  MessageOutlined,
  MonitorOutlined,
  PartitionOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** The console's icon set: catalogue entries name their icon by one of these keys. */
const MENU_ICONS: Readonly<Record<string, ComponentType>> = {
  home: HomeOutlined,
  appstore: AppstoreOutlined,
  fieldTime: FieldTimeOutlined,
  partition: PartitionOutlined,
  user: UserOutlined,
  team: TeamOutlined,
  apartment: ApartmentOutlined,
  hdd: HddOutlined,
  cluster: ClusterOutlined,
  safety: SafetyCertificateOutlined,
  lock: LockOutlined,
  key: KeyOutlined,
  alarm: AlertOutlined,
  monitor: MonitorOutlined,
  ticket: FileTextOutlined,
  video: VideoCameraOutlined,
  map: EnvironmentOutlined,
  dashboard: DashboardOutlined,
  statistics: BarChartOutlined,
  database: DatabaseOutlined,
  control: ControlOutlined,
  message: MessageOutlined,
  history: HistoryOutlined,
  login: LoginOutlined,
  setting: SettingOutlined,
  link: LinkOutlined,
};

export function MenuIcon({ name, external = false }: { name: string | undefined; external?: boolean }) {
  const Icon = (name && MENU_ICONS[name]) || (external ? LinkOutlined : AppstoreOutlined);
  return <Icon />;
}

import { EditOutlined, LockOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { canEditOwnAccount, openAccountDialog, useCurrentUser } from '../../lib/auth/index.ts';
import './profile-page.css';

/** The signed-in user's own information, with the account dialogs. */
export function ProfilePage() {
  const { t } = useTranslation('profile');
  const user = useCurrentUser();
  if (!user) return null;
  const editable = canEditOwnAccount(user);
  const orNone = (value: string | null) =>
    value || <Typography.Text type="secondary">{t('none')}</Typography.Text>;

  return (
    <Card variant="borderless" className="uiot-profile">
      <div className="uiot-profile__head">
        <Avatar size={64} src={user.avatar || undefined} className="uiot-profile__avatar">
          {user.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <div className="uiot-profile__name">
          <Typography.Title level={4} ellipsis={{ tooltip: user.name }} style={{ margin: 0 }}>
            {user.name}
          </Typography.Title>
          <Typography.Text type="secondary">{user.deptName ?? ''}</Typography.Text>
        </div>
        {editable && (
          <Space wrap>
            <Button
              icon={<EditOutlined />}
              onClick={() => openAccountDialog('changeInfo')}
              data-testid="profile-change-info"
            >
              {t('auth:changeInfo.title')}
            </Button>
            <Button
              icon={<LockOutlined />}
              onClick={() => openAccountDialog('changePassword')}
              data-testid="profile-change-password"
            >
              {t('auth:changePassword.title')}
            </Button>
          </Space>
        )}
      </div>
      {!editable && <Alert type="info" showIcon title={t('builtInAdmin')} className="uiot-profile__notice" />}
      <Descriptions
        bordered
        column={{ xs: 1, sm: 1, md: 2 }}
        data-testid="profile-details"
        items={[
          { key: 'account', label: t('account'), children: user.id },
          { key: 'name', label: t('name'), children: user.name },
          { key: 'dept', label: t('dept'), children: orNone(user.deptName) },
          {
            key: 'roles',
            label: t('roles'),
            children:
              user.roles.length > 0 ? (
                <Space size={[4, 4]} wrap>
                  {user.roles.map((role) => (
                    <Tag key={role} color="blue" variant="filled">
                      {role}
                    </Tag>
                  ))}
                </Space>
              ) : (
                orNone(null)
              ),
          },
          { key: 'email', label: t('email'), children: orNone(user.email) },
          { key: 'telNo', label: t('telNo'), children: orNone(user.telNo) },
        ]}
      />
    </Card>
  );
}

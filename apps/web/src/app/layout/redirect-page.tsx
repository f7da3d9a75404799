import { Navigate, useLocation, useParams } from 'react-router';

/** `/redirect/<path>`: shows `<path>` again, freshly mounted (the tags view's refresh). */
export function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${rest}${search}`} replace />;
}

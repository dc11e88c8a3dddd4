import { NotFoundMessage } from '../../components/NotFoundMessage';

export function NotFoundPage() {
  return (
    <>
      <title>Page not found · Forum</title>
      <NotFoundMessage />
    </>
  );
}

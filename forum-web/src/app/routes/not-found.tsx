import { NotFoundMessage } from '../../components/NotFoundMessage';

export function NotFoundPage() {
  return <NotFoundMessage />;
}

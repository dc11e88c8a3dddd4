import { useParams } from 'react-router-dom';
import { ComingSoonPage } from './coming-soon';

export function TagPage() {
  const { tag = '' } = useParams();
  return <ComingSoonPage title={`Posts Tagged with: #${tag}`} message="Browsing posts by tag is coming soon." />;
}

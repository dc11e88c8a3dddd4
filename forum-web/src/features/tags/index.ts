export { TagStrip } from './components/TagStrip';

import type { AdminStats } from '@forum/contracts';
import { Box, useMediaQuery } from '@mui/material';
import { BarChart, barClasses } from '@mui/x-charts/BarChart';
import { STAT_KEYS, STAT_NAMES } from './types';

/** One colour per total, in the order of the cards (each 3:1 or more against the white card). */
const BAR_COLORS = ['#3949ab', '#00796b', '#c2410c'];
const HEIGHT = 260;

/**
 * Spec §2 Admin dashboard: the three totals as bars scaled to the largest, which fills the chart's
 * height. The chart library lives in this file alone, loaded lazily by the dashboard. The figure
 * is one image to assistive technology, described by its numbers (also on the cards beside it).
 */
export default function StatsChart({ stats }: { stats: AdminStats['stats'] }) {
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const values = STAT_KEYS.map((key) => stats[key]);
  const largest = Math.max(...values);
  const share = (value: number) => (largest > 0 ? Math.round((value / largest) * 100) : 0);
  const description = STAT_KEYS.map((key) => `${STAT_NAMES[key]} ${stats[key]} (${share(stats[key])}% of the largest)`).join(', ');

  return (
    <Box role="img" aria-label={`Bar chart of the totals: ${description}`} sx={{ width: '100%', height: HEIGHT }}>
      <BarChart
        height={HEIGHT}
        skipAnimation={reduceMotion}
        hideLegend
        // the numbers are written on the bars and the cards: no tooltip to hover for
        slotProps={{ tooltip: { trigger: 'none' } }}
        xAxis={[{ scaleType: 'band', data: STAT_KEYS.map((key) => STAT_NAMES[key]), colorMap: { type: 'ordinal', colors: BAR_COLORS } }]}
        yAxis={[{ min: 0, max: Math.max(largest, 1), domainLimit: 'strict', tickMinStep: 1, width: 48 }]}
        series={[{ data: values, barLabel: 'value' }]}
        grid={{ horizontal: true }}
        margin={{ top: 16, right: 16 }}
        // white on the three dark bars
        sx={{ [`& .${barClasses.label}`]: { fill: '#fff', fontWeight: 700, fontSize: 16 } }}
      />
    </Box>
  );
}

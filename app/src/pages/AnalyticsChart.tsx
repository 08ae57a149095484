/**
 * A chart of the analytics screen (chart.js on a canvas): the canvas is an image whose name says
 * the figures in words, and the same figures are in a table on the screen.
 */
import { BlockStack, Card, Text } from '@shopify/polaris';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

export function AnalyticsChart({ title, description, labels, datasets, kind, tick, tableName }: {
  title: string;
  description: string;
  labels: string[];
  datasets: Array<{ label: string; data: number[]; color: string }>;
  kind: 'bar' | 'line';
  /** The y axis' labels: a count has whole ticks only (no 0.4 orders), money is in the shop's currency. */
  tick: 'count' | ((value: number) => string);
  /** Where the same figures are, for the image's name. */
  tableName: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: kind,
      data: {
        labels,
        datasets: datasets.map((set) => ({ label: set.label, data: set.data, backgroundColor: set.color, borderColor: set.color, pointRadius: 2, tension: 0.2 })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { y: { beginAtZero: true, ticks: tick === 'count' ? { precision: 0 } : { callback: (value) => tick(Number(value)) } } },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    // The y axis' labels, for a test to read (a canvas shows them only as pixels).
    const readTicks = () => canvas.current?.setAttribute('data-y-ticks', chart.scales.y?.ticks.map((item) => String(item.label)).join('|') ?? '');
    readTicks();
    chart.options.onResize = readTicks;
    return () => chart.destroy();
  }, [kind, labels, datasets, tick]);
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <div style={{ position: 'relative', height: 260 }}>
          <canvas ref={canvas} role="img" aria-label={`${title}. ${description} The same figures are in the ${tableName} below.`} />
        </div>
      </BlockStack>
    </Card>
  );
}

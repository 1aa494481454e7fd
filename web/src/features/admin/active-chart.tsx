import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

echarts.use([BarChart, GridComponent, TooltipComponent, SVGRenderer]);

/** Daily active users as bars (echarts, only the parts used); the statistics page offers the same as a table. */
export function ActiveChart({ points, label }: { points: { date: string; users: number }[]; label: string }) {
  const option = {
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 16, bottom: 32 },
    xAxis: { type: 'category', data: points.map((p) => p.date) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: label, type: 'bar', data: points.map((p) => p.users), itemStyle: { color: '#1f6feb' } }],
    aria: { enabled: true },
  };
  return (
    <div className="admin-chart" role="img" aria-label={label}>
      <ReactEChartsCore echarts={echarts} option={option} style={{ height: '100%' }} notMerge />
    </div>
  );
}

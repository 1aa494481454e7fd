import './schedule.css';
import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

echarts.use([BarChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

/**
 * Values by category as bars (echarts, only the parts used), for the class statistics; the page shows the same
 * figures as a table beside it. `max` fixes the value axis (100 for percentages).
 */
export function BarsChart({
  label,
  categories,
  values,
  max,
  color = '#1f6feb',
}: {
  label: string;
  categories: string[];
  values: number[];
  max?: number;
  color?: string;
}) {
  const option = {
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 16, bottom: 48 },
    xAxis: { type: 'category', data: categories, axisLabel: { interval: 0, overflow: 'truncate', width: 96 } },
    yAxis: { type: 'value', minInterval: 1, ...(max === undefined ? {} : { max }) },
    series: [{ name: label, type: 'bar', data: values, itemStyle: { color } }],
    aria: { enabled: true },
  };
  return (
    <div className="schedule-chart" role="img" aria-label={label}>
      <ReactEChartsCore echarts={echarts} option={option} style={{ height: '100%' }} notMerge />
    </div>
  );
}

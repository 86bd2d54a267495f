// The usage page's client script: draws the two uPlot charts (credits and
// calls per day, one line per operation) from the JSON the page carries in a
// data attribute (htmx swaps pages without their script elements).
// Served from the console's origin like uPlot itself; no inline script.

export const USAGE_CHART_JS = `
(function () {
  function drawAll() {
  var block = document.getElementById("usage-data");
  if (!block || typeof uPlot === "undefined" || block.dataset.drawn) return;
  block.dataset.drawn = "yes";
  var usage = JSON.parse(block.dataset.usage);
  var palette = ["#0b5cad", "#a4161a", "#1e6b33", "#7a4b00", "#5a2a82", "#00697a", "#8a2b5c", "#3d4b5c"];
  var xs = usage.days.map(function (d) {
    return Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8)) / 1000;
  });
  function draw(id, figures, unit) {
    var target = document.getElementById(id);
    if (!target) return;
    var series = [{}];
    var data = [xs];
    usage.operations.forEach(function (op, i) {
      series.push({ label: op, stroke: palette[i % palette.length], width: 2, points: { show: true } });
      data.push(figures[op]);
    });
    if (usage.operations.length === 0) {
      series.push({ label: "no calls yet", stroke: "#4a5360" });
      data.push(xs.map(function () { return 0; }));
    }
    new uPlot({
      width: Math.min(1000, target.clientWidth || 800),
      height: 240,
      tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
      series: series,
      // Whole numbers on the y axis: calls and credits come in units.
      axes: [{}, { label: unit, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6, 1e7] }],
      scales: { y: { range: function (u, min, max) { return [0, Math.max(1, max)]; } } },
    }, data, target);
  }
  draw("credits-chart", usage.credits, "credits");
  draw("calls-chart", usage.calls, "calls");
  }
  // On the first load, and after each page htmx swaps in.
  document.addEventListener("DOMContentLoaded", drawAll);
  document.addEventListener("htmx:afterSettle", drawAll);
})();
`;

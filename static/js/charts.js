// Draws every chart figure (templates/insights/_chart.html) with vega-embed, within the CSP:
// expressions are interpreted from their AST (no `new Function`), and no <style> element or
// style attribute is injected (the look comes from static/css/app.css). The table under each
// figure holds the same numbers, so a chart that cannot be drawn says so and points there.
(function () {
  "use strict";

  function fail(view, why) {
    view.classList.add("chart-failed");
    view.replaceChildren();
    const message = document.createElement("p");
    message.className = "chart-error";
    message.setAttribute("role", "status");
    message.textContent =
      "The chart could not be drawn (" + why + "). The table below has the same numbers.";
    view.appendChild(message);
  }

  function options() {
    return {
      renderer: "svg",
      actions: false,
      // A mark with a link (a lift chart's point: its reflection) opens it in this tab.
      loader: window.vega.loader({ target: "_self" }),
      ast: true, // parse expressions to an AST …
      expr: window.vega.expressionInterpreter, // … and interpret it instead of compiling it
      defaultStyle: false, // vega-embed would otherwise add a <style> element
      tooltip: { disableDefaultStyle: true }, // so would vega-tooltip
      logLevel: window.vega.Warn,
    };
  }

  function draw(figure) {
    const view = figure.querySelector("[data-chart]");
    const source = document.getElementById(figure.dataset.spec || "");
    if (!view || !source) return;
    if (!window.vegaEmbed || !window.vega || !window.vega.expressionInterpreter) {
      fail(view, "the chart library did not load");
      return;
    }
    let spec;
    try {
      spec = JSON.parse(source.textContent);
    } catch (error) {
      fail(view, "its data could not be read");
      return;
    }
    fitNarrow(spec, view.clientWidth || figure.clientWidth);
    view.replaceChildren();
    window
      .vegaEmbed(view, spec, options())
      .then(function () {
        figure.classList.add("chart-ready");
      })
      .catch(function (error) {
        fail(view, error && error.message ? error.message : String(error));
      });
  }

  // On a narrow screen (a phone, 390 px): legends wrap into columns and a long title breaks
  // into lines, so nothing is cut off or pushes the page wider than the screen. Review
  // markers keep their numbers (short, in rows that take turns); the caption says what each is.
  function fitNarrow(spec, width) {
    if (!width || width >= 560) return;
    spec.config = spec.config || {};
    spec.config.legend = Object.assign({}, spec.config.legend, { columns: 2, labelLimit: 140 });
    fitAxes(spec, width);
    // A legend set on an encoding (the department lines') outranks the config: on a phone
    // one name a row, so a long one ("Lead Generation") is not cut off at the edge.
    (Array.isArray(spec.layer) ? spec.layer : [spec]).forEach(function (layer) {
      const color = layer.encoding && layer.encoding.color;
      if (color && color.legend) {
        const narrow = { columns: width < 420 ? 1 : 2, labelLimit: 200 };
        color.legend = Object.assign({}, color.legend, narrow);
      }
    });
    const title = spec.title;
    const perLine = Math.max(24, Math.floor(width / 8));
    if (title && typeof title.text === "string" && title.text.length > perLine) {
      title.text = wrap(title.text, perLine);
    }
  }

  function wrap(text, perLine) {
    const lines = [];
    let line = "";
    text.split(" ").forEach(function (word) {
      if (line && (line + " " + word).length > perLine) {
        lines.push(line);
        line = word;
      } else {
        line = line ? line + " " + word : word;
      }
    });
    if (line) lines.push(line);
    return lines;
  }

  // A label axis (a reflection's title per row) gets at most a third of a narrow chart, so the
  // plot keeps room for its data (the full label is in the tooltip and the table); a number
  // axis gets fewer ticks, so its labels do not run into one another.
  function fitAxes(spec, width) {
    const labels = Math.max(90, Math.round(width / 3));
    const visit = function (node) {
      if (!node || typeof node !== "object") return;
      const encoding = node.encoding || {};
      ["x", "y"].forEach(function (channel) {
        const enc = encoding[channel];
        if (!enc || typeof enc !== "object") return;
        if (enc.type === "nominal" || enc.type === "ordinal") {
          if (channel === "y") {
            enc.axis = Object.assign({}, enc.axis, {
              labelLimit: Math.min((enc.axis && enc.axis.labelLimit) || labels, labels),
            });
          }
        } else if (enc.type === "quantitative") {
          if (enc.axis) {
            enc.axis = Object.assign({}, enc.axis, {
              tickCount: Math.min(enc.axis.tickCount || 4, 4),
            });
          }
          // The title is centred under the plot, beside the label axis: wrap to the plot's width.
          const perLine = Math.max(16, Math.floor((width - labels - 30) / 7));
          if (typeof enc.title === "string" && enc.title.length > perLine) {
            enc.title = wrap(enc.title, perLine);
          }
        }
      });
      (node.layer || []).forEach(visit);
    };
    visit(spec);
  }

  function drawAll() {
    document.querySelectorAll("figure[data-chart-figure]").forEach(draw);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();

#include "model_summary_view.h"

#include "gpu_specs.h"
#include "traffic_model.h"

#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

// The GPU to evaluate the model on: the selected run's, else the H200 the project measures on.
const GpuSpec &specFor(const std::optional<RunRecord> &run)
{
    if (const std::optional<int> arch = run ? parseSmArch(run->gpuArch.toStdString()) : std::nullopt)
        if (const GpuSpec *spec = findGpuForArch(*arch))
            return *spec;
    if (const GpuSpec *h200 = findGpu("h200"))
        return *h200;
    return knownGpus().front();
}

QString row(const QString &name, const QString &value)
{
    return QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>")
        .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
}

} // namespace

ModelSummaryView::ModelSummaryView(Kind kind, QWidget *parent) : QFrame(parent), m_kind(kind)
{
    setFrameShape(QFrame::StyledPanel);
    setMinimumSize(260, 200);
    setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel;
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_body = new QLabel;
    m_body->setWordWrap(true);
    m_body->setTextFormat(Qt::RichText);
    m_body->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_body->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    layout->addWidget(m_body, 1);
    m_title->setText(kind == Kind::Roofline ? tr("Roofline (analytic model)")
                                            : tr("Thread mapping (analytic model)"));
    setObjectName(kind == Kind::Roofline ? QStringLiteral("rooflineView") : QStringLiteral("mappingView"));
    refresh();
}

void ModelSummaryView::setConfig(const RunConfig &config)
{
    m_config = config;
    refresh();
}

void ModelSummaryView::setSelectedRun(const std::optional<RunRecord> &run)
{
    m_run = run;
    refresh();
}

QString ModelSummaryView::viewName() const
{
    return m_kind == Kind::Mapping ? tr("the mapping summary") : tr("the roofline summary");
}

QString ModelSummaryView::text() const
{
    QTextDocument doc;
    doc.setHtml(m_body->text());
    return m_title->text() + QLatin1Char('\n') + doc.toPlainText();
}

void ModelSummaryView::refresh()
{
    m_body->setText(m_kind == Kind::Roofline ? rooflineHtml() : mappingHtml());
}

QString ModelSummaryView::rooflineHtml() const
{
    const StageInfo &info = stageInfo(m_config.stage);
    const auto problems = violations(m_config.stage, m_config.params, m_config.size);
    if (!problems.empty())
        return tr("%1 cannot run at these parameters: %2")
            .arg(QString::fromStdString(info.title), QString::fromStdString(problems.front()))
            .toHtmlEscaped();
    const TrafficEstimate t = estimateTraffic(m_config.stage, m_config.params, m_config.size);
    const GpuSpec &gpu = specFor(m_run);
    const double ridge = gpu.fp32Tflops * 1e12 / (gpu.dramGBs * 1e9);
    const double attainable = std::min(gpu.fp32Tflops, t.intensity * gpu.dramGBs / 1000.0);
    QString html = QStringLiteral("<table>");
    html += row(tr("Stage"), QString::fromStdString(info.title));
    html += row(tr("Arithmetic intensity"), tr("%1 FLOP/B").arg(t.intensity, 0, 'f', 2));
    html += row(tr("Formula"), QString::fromStdString(t.formula));
    html += row(tr("Best possible (compulsory)"), tr("%1 FLOP/B").arg(t.compulsoryIntensity, 0, 'f', 1));
    html += row(tr("%1 ridge point").arg(QString::fromStdString(gpu.name)),
                tr("%1 FLOP/B").arg(ridge, 0, 'f', 1));
    html += row(tr("Roof at this intensity"), tr("%1 TFLOP/s (%2-bound)")
                                                  .arg(attainable, 0, 'f', 1)
                                                  .arg(t.intensity < ridge ? tr("memory") : tr("compute")));
    if (m_run && m_run->isOk())
        html += row(tr("Selected run %1").arg(m_run->runId),
                    tr("%1 TFLOP/s on %2").arg(m_run->tflops, 0, 'f', 2).arg(m_run->gpuName));
    html += QStringLiteral("</table>");
    return html;
}

QString ModelSummaryView::mappingHtml() const
{
    const StageInfo &info = stageInfo(m_config.stage);
    if (info.isLibrary)
        return tr("%1 is a library kernel: its thread mapping is not public.")
            .arg(QString::fromStdString(info.title))
            .toHtmlEscaped();
    const auto problems = violations(m_config.stage, m_config.params, m_config.size);
    if (!problems.empty())
        return QString::fromStdString(problems.front()).toHtmlEscaped();
    const LaunchGeometry g = launchGeometry(m_config.stage, m_config.params, m_config.size);
    const GpuSpec &gpu = specFor(m_run);
    const int registers = m_run && m_run->registers > 0 ? m_run->registers : 0;
    const Occupancy occ = computeOccupancy(gpu, g.threadsPerBlock(), registers, g.smemBytes());
    QString html = QStringLiteral("<table>");
    html += row(tr("Kernel"), QString::fromStdString(kernelNameExpression(m_config.stage, m_config.params)));
    html += row(tr("Block"), tr("%1 x %2 = %3 threads (%4 warps)")
                                 .arg(g.blockX)
                                 .arg(g.blockY)
                                 .arg(g.threadsPerBlock())
                                 .arg((g.threadsPerBlock() + 31) / 32));
    html += row(tr("Grid"), tr("%1 x %2 blocks").arg(g.gridX).arg(g.gridY));
    html += row(tr("Shared memory"), tr("%1 bytes per block").arg(g.smemBytes()));
    html += row(tr("Occupancy on %1").arg(QString::fromStdString(gpu.name)),
                tr("%1 % — %2%3")
                    .arg(occ.fraction * 100.0, 0, 'f', 0)
                    .arg(QString::fromStdString(occ.explanation))
                    .arg(registers ? QString() : tr(" (registers unknown until compiled)")));
    html += QStringLiteral("</table>");
    return html;
}

} // namespace gemmscope

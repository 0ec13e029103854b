#include "event_sink.h"

#include <QJsonDocument>

namespace gemmscope::runner {

void StdoutEventSink::send(const QJsonObject &event)
{
    QByteArray line = QJsonDocument(event).toJson(QJsonDocument::Compact);
    line += '\n';
    std::lock_guard lock(m_mutex);
    std::fwrite(line.constData(), 1, size_t(line.size()), m_out);
    std::fflush(m_out);
}

} // namespace gemmscope::runner

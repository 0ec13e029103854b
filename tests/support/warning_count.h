// Test helper: the warnings (qWarning, which go to stderr) that contain a text, collected while it
// lives. Every message still goes on to the handler before it (Qt Test's), as without it.
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace gemmscope::testing {

class WarningCount {
public:
    explicit WarningCount(const QString &text)
    {
        s_text = text;
        s_lines.clear();
        s_previous = qInstallMessageHandler(&WarningCount::handle);
    }
    ~WarningCount() { qInstallMessageHandler(s_previous); }
    WarningCount(const WarningCount &) = delete;
    WarningCount &operator=(const WarningCount &) = delete;
    QStringList lines() const { return s_lines; }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        if (type == QtWarningMsg && message.contains(s_text))
            s_lines << message;
        if (s_previous)
            s_previous(type, context, message);
    }
    static inline QString s_text;
    static inline QStringList s_lines;
    static inline QtMessageHandler s_previous = nullptr;
};

} // namespace gemmscope::testing

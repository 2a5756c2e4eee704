// The autosave survives a real kill -9 (docs/undo.md, "Autosave"). A child process (this
// binary with WAVEBENCH_KILL_CHILD set) opens a builtin with resources in the workbench,
// edits it, waits for the autosave timer, then sends itself SIGKILL: no destructor, no clean
// exit. This process then starts a workbench on the same data folder, finds the autosave, and
// restores the edit with the builtin's resources (the harbour's heightmap, the canoe's hull).
#include <csignal>

#include <QApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/views/surface_view.hpp"
#include "app/gui/window/main_window.hpp"

using namespace wb;
using namespace wb::gui;

namespace {

constexpr char kChildVariable[] = "WAVEBENCH_KILL_CHILD";
constexpr int kAutosaveWaitMs = 25000;  // the autosave timer runs every 10 s

// The child: the builtin named by the variable, its first mask cell toggled, killed once the
// autosave holds it.
[[noreturn]] void runChild(const QString& builtin) {
  MainWindow window(true);
  window.show();
  if (!window.openScenario(builtin)) std::_Exit(2);
  Mask mask = window.document().mask();
  mask[0] = mask[0] ? 0 : 1;
  window.document().setMask(mask, "wall");
  if (!QTest::qWaitFor([&] { return window.autosave().exists(); }, kAutosaveWaitMs))
    std::_Exit(4);  // no autosave written: the parent sees a normal exit and fails
  std::raise(SIGKILL);
  std::_Exit(3);  // not reached
}

}  // namespace

class AutosaveKillTest : public QObject {
  Q_OBJECT

 private slots:
  void killedSessionIsRestored_data() {
    QTest::addColumn<QString>("builtin");
    QTest::newRow("harbour") << "builtin:harbour";  // a heightmap beside its JSON
    QTest::newRow("canoe") << "builtin:canoe";      // an OBJ hull
  }

  void killedSessionIsRestored() {
    QFETCH(QString, builtin);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("XDG_DATA_HOME", home.filePath("data"));
    environment.insert("XDG_CONFIG_HOME", home.filePath("config"));
    environment.insert(kChildVariable, builtin);
    QProcess child;
    child.setProcessEnvironment(environment);
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForFinished(kAutosaveWaitMs + 30000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    QCOMPARE(child.exitCode(), int(SIGKILL));

    qputenv("XDG_DATA_HOME", home.filePath("data").toUtf8());
    qputenv("XDG_CONFIG_HOME", home.filePath("config").toUtf8());
    MainWindow restored(true);
    QVERIFY2(restored.autosave().exists(), qPrintable(restored.autosave().file()));
    QVERIFY(restored.openScenario(restored.autosave().file()));
    MainWindow original(false);
    QVERIFY(original.openScenario(builtin));
    Mask mask = original.document().mask();
    mask[0] = mask[0] ? 0 : 1;
    QCOMPARE(restored.document().mask(), mask);
    const Scenario& back = restored.document().scenario();
    const Scenario& builtinScenario = original.document().scenario();
    QCOMPARE(bool(back.terrain), bool(builtinScenario.terrain));
    QCOMPARE(back.rigidBodies.size(), builtinScenario.rigidBodies.size());
    QCOMPARE(restored.document().modelIds(), original.document().modelIds());
    restored.autosave().clear();
    restored.document().setModified(false);
    original.document().setModified(false);
  }
};

int main(int argc, char** argv) {
  SurfaceView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("WavebenchTests");
  QApplication::setApplicationName("AutosaveKill");
  if (qEnvironmentVariableIsSet(kChildVariable)) runChild(qEnvironmentVariable(kChildVariable));
  AutosaveKillTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "autosave_kill_test.moc"

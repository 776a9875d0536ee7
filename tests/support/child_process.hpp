// A helper program run by a test: started with fork/exec, its standard output
// read line by line, killed and reaped by the destructor if still running.
#pragma once

#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace advlock::test {

class ChildProcess {
public:
    // merge_stderr: the child's stderr goes to the same pipe as its stdout;
    // stderr_fd (when >= 0): the child's stderr goes there instead.
    explicit ChildProcess(const std::vector<std::string> &argv, bool merge_stderr = false, int stderr_fd = -1) {
        int out[2];
        if (pipe(out) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(out[1], STDOUT_FILENO);
            if (merge_stderr) dup2(out[1], STDERR_FILENO);
            if (stderr_fd >= 0) dup2(stderr_fd, STDERR_FILENO);
            close(out[0]);
            close(out[1]);
            std::vector<char *> args;
            for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
            args.push_back(nullptr);
            execvp(args[0], args.data());
            _exit(127);
        }
        close(out[1]);
        output_ = fdopen(out[0], "r");
    }
    ~ChildProcess() {
        if (pid_ > 0) {
            kill(SIGKILL);
            wait();
        }
        if (output_) fclose(output_);
    }
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    // The next line of output without its newline; "" at end of output.
    std::string read_line() {
        std::string line;
        for (int c; (c = fgetc(output_)) != EOF && c != '\n';) line += static_cast<char>(c);
        return line;
    }

    void kill(int signal) {
        if (pid_ > 0) ::kill(pid_, signal);
    }

    // Everything the child writes until it closes its output.
    std::string read_all() {
        std::string text;
        for (int c; (c = fgetc(output_)) != EOF;) text += static_cast<char>(c);
        return text;
    }

    // Reaps the child; its exit code, or 128 + signal.
    int wait() {
        if (pid_ <= 0) return exit_code_;
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_code_;
    }

    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    FILE *output_ = nullptr;
    int exit_code_ = -1;
};

}  // namespace advlock::test

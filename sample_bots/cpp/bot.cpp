// A Euchre Arena bot in C++, built from proto/ alone: a gRPC server of EuchreBotService
// (proto/euchre/v1/bot.proto) at the address the arena gives in EUCHRE_BOT_ADDRESS,
// "unix:/path/bot.sock" or "127.0.0.1:PORT", which gRPC's C++ server takes as it is. The
// decisions are strategy.cpp's; this file only serves them.
//
//   sh build.sh                 # once, in this folder: build/cppbot
//   arena check-bot sample_bots/cpp
#include <grpcpp/grpcpp.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>

#include "euchre/v1/bot.grpc.pb.h"
#include "strategy.h"

namespace ev = euchre::v1;
using grpc::ServerContext;
using grpc::Status;

constexpr const char* kName = "cpp";
constexpr const char* kVersion = "1.0";
constexpr uint32_t kProtocolVersion = 1;

class Bot final : public ev::EuchreBotService::Service {
    Status Hello(ServerContext*, const ev::HelloRequest* request,
                 ev::HelloResponse* response) override {
        // Every game of this process has the rules of its Hello.
        coloured_jokers_ = request->rules().coloured_jokers();
        response->set_name(kName);
        response->set_version(kVersion);
        response->set_author("Euchre Arena");
        response->set_protocol_version(kProtocolVersion);
        // Named one by one, not every value of the enum: a feature added to the proto
        // later is one this code has not been written for.
        for (ev::Feature f : {ev::FEATURE_SIX_SEATS, ev::FEATURE_SEVEN_CARD_HANDS,
                              ev::FEATURE_DOUBLE_PACK, ev::FEATURE_DEALER_DECLINE,
                              ev::FEATURE_TURNED_JOKER_BID, ev::FEATURE_CORNWALL_ASK,
                              ev::FEATURE_RAILROADING}) {
            response->add_features(f);
        }
        if (request->protocol_version() != kProtocolVersion) {
            response->set_refuse_rules(true);
            response->set_refusal_reason("speaks protocol 1 only");
        }
        return Status::OK;
    }

    Status StartGame(ServerContext*, const ev::StartGameRequest*,
                     ev::StartGameResponse*) override {
        return Status::OK;
    }

    // Answered by position in legal_actions: nothing to copy back, so no field of the
    // action (Card.copy, Action.seat) can come back wrong.
    Status Decide(ServerContext*, const ev::DecideRequest* request,
                  ev::DecideResponse* response) override {
        response->set_action_index(choose(*request, coloured_jokers_));
        return Status::OK;
    }

    Status EndGame(ServerContext*, const ev::EndGameRequest*, ev::EndGameResponse*) override {
        return Status::OK;
    }

    // Atomic: gRPC serves calls on several threads.
    std::atomic<bool> coloured_jokers_{false};
};

int main() {
    const char* address = std::getenv("EUCHRE_BOT_ADDRESS");
    if (address == nullptr || *address == '\0') {
        std::cerr << "EUCHRE_BOT_ADDRESS is not set: the arena starts this bot and sets it\n";
        return 2;
    }
    // The arena stops a bot with SIGTERM and kills it 2 s later. Blocked here, before
    // gRPC starts its threads (which inherit the mask), the signal reaches only the
    // thread below that waits for it and shuts the server down.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);

    Bot bot;
    grpc::ServerBuilder builder;
    builder.AddListeningPort(address, grpc::InsecureServerCredentials());
    builder.RegisterService(&bot);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server) {
        std::cerr << "cannot listen on " << address << " (gRPC's message above says why)\n";
        return 1;
    }
    std::cerr << kName << " " << kVersion << " listening on " << address << std::endl;

    std::thread stopper([&] {
        int signal = 0;
        sigwait(&stop, &signal);
        // Calls still running get a moment to finish, then are cancelled.
        server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
    });
    server->Wait();
    stopper.join();
    return 0;
}

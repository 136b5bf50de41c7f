package api

import (
	"context"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

// defaultDeliveryLimit is how many deliveries a delivery list returns without limit.
const defaultDeliveryLimit = 100

// CreateWebhook implements gen.StrictServerInterface.
func (h *handlers) CreateWebhook(ctx context.Context, req gen.CreateWebhookRequestObject) (gen.CreateWebhookResponseObject, error) {
	if err := storableText(field{"url", req.Body.Url}, field{"secret", req.Body.Secret}); err != nil {
		return nil, err
	}
	if err := httpURLs(field{"url", req.Body.Url}); err != nil {
		return nil, err
	}
	if err := usableSecret("secret", req.Body.Secret); err != nil {
		return nil, err
	}
	events := make([]string, len(req.Body.Events))
	for i, e := range req.Body.Events {
		events[i] = string(e)
	}
	sub, err := h.store.CreateSubscription(ctx, durable.Subscription{URL: req.Body.Url, Secret: req.Body.Secret, Events: events})
	if err != nil {
		return nil, err
	}
	return gen.CreateWebhook201JSONResponse(toSubscription(sub)), nil
}

// ListWebhooks implements gen.StrictServerInterface.
func (h *handlers) ListWebhooks(ctx context.Context, _ gen.ListWebhooksRequestObject) (gen.ListWebhooksResponseObject, error) {
	subs, err := h.store.ListSubscriptions(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.WebhookList{Webhooks: make([]gen.WebhookSubscription, 0, len(subs))}
	for _, s := range subs {
		out.Webhooks = append(out.Webhooks, toSubscription(s))
	}
	return gen.ListWebhooks200JSONResponse(out), nil
}

// GetWebhook implements gen.StrictServerInterface.
func (h *handlers) GetWebhook(ctx context.Context, req gen.GetWebhookRequestObject) (gen.GetWebhookResponseObject, error) {
	sub, err := h.store.GetSubscription(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return gen.GetWebhook200JSONResponse(toSubscription(sub)), nil
}

// UpdateWebhook implements gen.StrictServerInterface.
func (h *handlers) UpdateWebhook(ctx context.Context, req gen.UpdateWebhookRequestObject) (gen.UpdateWebhookResponseObject, error) {
	body := req.Body
	var text []field
	if body.Url != nil {
		text = append(text, field{"url", *body.Url})
	}
	if body.Secret != nil {
		text = append(text, field{"secret", *body.Secret})
	}
	if err := storableText(text...); err != nil {
		return nil, err
	}
	if body.Url != nil {
		if err := httpURLs(field{"url", *body.Url}); err != nil {
			return nil, err
		}
	}
	if body.Secret != nil {
		if err := usableSecret("secret", *body.Secret); err != nil {
			return nil, err
		}
	}
	up := durable.SubscriptionUpdate{URL: body.Url, Secret: body.Secret, Enabled: body.Enabled}
	if body.Events != nil {
		up.Events = make([]string, len(*body.Events))
		for i, e := range *body.Events {
			up.Events[i] = string(e)
		}
	}
	sub, err := h.store.UpdateSubscription(ctx, req.Id, up)
	if err != nil {
		return nil, err
	}
	return gen.UpdateWebhook200JSONResponse(toSubscription(sub)), nil
}

// DeleteWebhook implements gen.StrictServerInterface.
func (h *handlers) DeleteWebhook(ctx context.Context, req gen.DeleteWebhookRequestObject) (gen.DeleteWebhookResponseObject, error) {
	if err := h.store.DeleteSubscription(ctx, req.Id); err != nil {
		return nil, err
	}
	return gen.DeleteWebhook204Response{}, nil
}

// ListWebhookDeliveries implements gen.StrictServerInterface.
func (h *handlers) ListWebhookDeliveries(ctx context.Context, req gen.ListWebhookDeliveriesRequestObject) (gen.ListWebhookDeliveriesResponseObject, error) {
	ds, err := h.store.ListDeliveries(ctx, durable.DeliveryFilter{SubscriptionID: req.Id}, deliveryLimit(req.Params.Limit))
	if err != nil {
		return nil, err
	}
	return gen.ListWebhookDeliveries200JSONResponse(toDeliveryList(ds)), nil
}

// ListRunDeliveries implements gen.StrictServerInterface.
func (h *handlers) ListRunDeliveries(ctx context.Context, req gen.ListRunDeliveriesRequestObject) (gen.ListRunDeliveriesResponseObject, error) {
	ds, err := h.store.ListDeliveries(ctx, durable.DeliveryFilter{RunID: req.Id}, deliveryLimit(req.Params.Limit))
	if err != nil {
		return nil, err
	}
	return gen.ListRunDeliveries200JSONResponse(toDeliveryList(ds)), nil
}

// RedeliverWebhook implements gen.StrictServerInterface.
func (h *handlers) RedeliverWebhook(ctx context.Context, req gen.RedeliverWebhookRequestObject) (gen.RedeliverWebhookResponseObject, error) {
	d, err := h.store.Redeliver(ctx, req.DeliveryId)
	if err != nil {
		return nil, err
	}
	return gen.RedeliverWebhook202JSONResponse(toDelivery(d)), nil
}

func deliveryLimit(limit *int) int {
	if limit == nil {
		return defaultDeliveryLimit
	}
	return *limit
}

func toSubscription(s durable.Subscription) gen.WebhookSubscription {
	out := gen.WebhookSubscription{
		Id:                  s.ID,
		Url:                 s.URL,
		Events:              s.Events,
		Enabled:             s.Enabled,
		ConsecutiveFailures: s.ConsecutiveFailures,
		CreatedAt:           s.CreatedAt,
		UpdatedAt:           s.UpdatedAt,
	}
	if out.Events == nil {
		out.Events = []string{}
	}
	if s.DisabledReason != "" {
		reason := s.DisabledReason
		out.DisabledReason = &reason
	}
	return out
}

func toDelivery(d durable.Delivery) gen.Delivery {
	out := gen.Delivery{
		Id:           d.ID,
		RunId:        d.RunID,
		EventType:    d.EventType,
		Url:          d.URL,
		Status:       gen.DeliveryStatus(d.Status),
		Attempts:     d.Attempts,
		Redeliveries: d.Redeliveries,
		CreatedAt:    d.CreatedAt,
		UpdatedAt:    d.UpdatedAt,
		DeliveredAt:  d.DeliveredAt,
	}
	if d.SubscriptionID != "" {
		id := d.SubscriptionID
		out.SubscriptionId = &id
	}
	if d.LastStatusCode != 0 {
		code := d.LastStatusCode
		out.LastStatusCode = &code
	}
	if d.LastError != "" {
		msg := d.LastError
		out.LastError = &msg
	}
	return out
}

func toDeliveryList(ds []durable.Delivery) gen.DeliveryList {
	out := gen.DeliveryList{Deliveries: make([]gen.Delivery, 0, len(ds))}
	for _, d := range ds {
		out.Deliveries = append(out.Deliveries, toDelivery(d))
	}
	return out
}

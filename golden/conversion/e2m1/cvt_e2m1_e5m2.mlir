entry @cvt_e2m1_e5m2(%arg0: tile<ptr<f4E2M1FN>>, %arg1: tile<ptr<i8>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f4E2M1FN>>
  %5 = make_tensor_view %4, shape = [512], strides = [1] : tensor_view<512xf4E2M1FN, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf4E2M1FN, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf4E2M1FN, strides=[1]>>, tile<i32> -> tile<128xf4E2M1FN>, token
  %9 = ftof %7  : tile<128xf4E2M1FN> -> tile<128xf8E5M2>
  %10 = bitcast %9 : tile<128xf8E5M2> -> tile<128xi8>
  %11 = assume div_by<16>, %arg1 : tile<ptr<i8>>
  %12 = make_tensor_view %11, shape = [512], strides = [1] : tensor_view<512xi8, strides=[1]>
  %13 = make_partition_view %12 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi8, strides=[1]>>
  %14 = store_view_tko weak %10, %13[%1] token = %8 : tile<128xi8>, partition_view<tile=(128), padding_value = zero, tensor_view<512xi8, strides=[1]>>, tile<i32> -> token
  return
}
